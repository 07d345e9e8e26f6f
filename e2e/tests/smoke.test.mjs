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

// The entity page's tabs are links in Backstage UI's header, tabs in older themes.
function environmentsTab(page) {
  return page
    .getByRole('link', { name: 'Environments', exact: true })
    .or(page.getByRole('tab', { name: 'Environments', exact: true }));
}

// React's development warnings are not failures of the page.
function isAppError(text) {
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}

test('the catalog lists the example components', async () => {
  const page = await portal.page();
  // All components, not only those the guest owns (the catalog's default).
  await portal.goto(
    page,
    '/catalog?filters%5Bkind%5D=component&filters%5Buser%5D=all',
  );
  for (const title of [
    'Storefront',
    'Checkout API',
    'Notifications',
    'Search Indexer',
  ]) {
    await page
      .getByRole('link', { name: title, exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
  }
  await portal.screenshot(page, 'smoke-catalog');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('an annotated entity has the Environments tab', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog/default/component/storefront');
  await page
    .getByRole('heading', { name: 'Storefront' })
    .first()
    .waitFor({ timeout: 30_000 });
  const tab = environmentsTab(page);
  await tab.first().waitFor({ timeout: 30_000 });
  await tab.first().click();
  await page.waitForURL(/\/gitlab-env/);
  await portal.screenshot(page, 'smoke-entity-tab');
});

test('an entity without the annotations has no Environments tab', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog/default/component/docs-site');
  await page
    .getByRole('heading', { name: 'Docs Site' })
    .first()
    .waitFor({ timeout: 30_000 });
  await page
    .getByText('Static documentation', { exact: false })
    .first()
    .waitFor({ timeout: 30_000 });
  assert.equal(await environmentsTab(page).count(), 0);
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
