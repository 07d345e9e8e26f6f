// The portal's home for every feature: catalog, an entity's Environments
// tab and the deployment overview page open, with no error panel.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';

let portal;
before(async () => {
  portal = await openPortal();
});
after(async () => {
  await portal?.close();
});

test('the catalog lists the example components', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog');
  for (const name of [
    'storefront',
    'checkout-api',
    'notifications',
    'search-indexer',
  ]) {
    await page
      .getByRole('link', { name, exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
  }
  await portal.screenshot(page, 'smoke-catalog');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('an annotated entity has the Environments tab, an unannotated one does not', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog/default/component/storefront');
  await page
    .getByRole('heading', { name: /storefront/i })
    .first()
    .waitFor({ timeout: 30_000 });
  const tab = page.getByRole('tab', { name: 'Environments' });
  await tab.waitFor({ timeout: 30_000 });
  await tab.click();
  await page.waitForURL(/\/gitlab-env$/);
  await portal.screenshot(page, 'smoke-entity-tab');

  await portal.goto(page, '/catalog/default/component/docs-site');
  await page
    .getByRole('heading', { name: /docs site/i })
    .first()
    .waitFor({ timeout: 30_000 });
  assert.equal(
    await page.getByRole('tab', { name: 'Environments' }).count(),
    0,
  );
});

test('the deployment overview page opens from the sidebar', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog');
  await page.getByRole('link', { name: 'Deployments' }).first().click();
  await page.waitForURL(/\/gitlab-env/);
  await page
    .getByRole('heading', { name: /Deployments/ })
    .first()
    .waitFor({ timeout: 30_000 });
  await portal.screenshot(page, 'smoke-overview');
  assert.equal(await page.getByText('Error:', { exact: false }).count(), 0);
});

// React's development warnings are not failures of the page.
function isAppError(text) {
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}
