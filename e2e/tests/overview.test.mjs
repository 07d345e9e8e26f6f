// The deployment overview against the portal's default simulator scenario
// (examples/scenarios/default): every environment of every annotated
// entity, and a shared link filtered to production/us-region.
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

async function waitForLoaded(page) {
  await page
    .getByText(/^Showing \d+ of \d+ environments$/)
    .waitFor({ timeout: 60_000 });
  // The progress bar stays until the backend's done line has arrived.
  await page
    .getByRole('progressbar', { name: 'Loading environments' })
    .waitFor({ state: 'detached', timeout: 60_000 });
}

test('lists every environment of the example catalog, worst first', async () => {
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  await waitForLoaded(page);

  const rows = page.getByTestId('overview-row');
  // storefront 4 available (+1 stopped hidden), checkout-api 2, notifications 3
  // shown by its environments annotation, search-indexer 3.
  const count = await rows.count();
  assert.ok(count >= 12, `expected at least 12 environments, saw ${count}`);

  // Tier sections in GitLab's order; each heading starts with its health icon's name.
  const sections = (
    await page.getByRole('heading', { level: 2 }).allTextContents()
  )
    .map(
      text =>
        text.match(/(Production|Staging|Testing|Development|Other)$/)?.[1],
    )
    .filter(Boolean);
  assert.deepEqual(sections, ['Production', 'Staging', 'Development']);
  for (const status of ['Degraded', 'Unknown', 'Healthy']) {
    const chip = page.getByRole('button', {
      name: new RegExp(`^\\d+ ${status}$`),
    });
    const label = await chip.getAttribute('aria-label');
    assert.ok(
      Number(label.split(' ')[0]) > 0,
      `expected some ${status} environments`,
    );
  }
  await portal.screenshot(page, 'overview');
});

test('a shared link filtered to production/us-region shows that environment only', async () => {
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env?folder=production%2Fus-region');
  await waitForLoaded(page);

  const rows = page.getByTestId('overview-row');
  assert.equal(await rows.count(), 1);
  const cells = await rows.first().getByRole('cell').allTextContents();
  assert.match(cells[0], /Healthy/);
  assert.equal(cells[1], 'Storefront');
  // Links to GitLab carry a screen-reader note after their text.
  assert.match(cells[2], /^production\/us-region\b/);
  assert.match(cells[6], /^prod-us\b/);
  assert.equal(cells[7], 'storefront');
  assert.equal(
    await page
      .getByRole('button', { name: '1 Healthy' })
      .getAttribute('aria-pressed'),
    'false',
  );
  assert.equal(
    await page.getByRole('button', { name: '0 Degraded' }).count(),
    1,
  );
  await portal.screenshot(page, 'overview-us-region');
});
