// The pictures of the docs' tour (docs/tour.md) and the README's image,
// taken from the demo portal as the browser tests see it, into
// e2e/artifacts/tour/. `node scripts/docs-images.mjs` copies them to
// docs/images/ when they should be refreshed. Each picture is checked for
// what it is meant to show before it is taken.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS_DIR, openPortal } from '../lib/portal.mjs';
import { live, overviewLoaded, resourceGraph } from '../lib/tab.mjs';

const TIMEOUT = 60_000;
const TOUR_DIR = join(ARTIFACTS_DIR, 'tour');

let portal;
before(async () => {
  await mkdir(TOUR_DIR, { recursive: true });
  portal = await openPortal({ viewport: { width: 1440, height: 1000 } });
});
after(async () => {
  await portal?.close();
});

const picture = (page, name) =>
  page.screenshot({ path: join(TOUR_DIR, `${name}.png`) });

async function openStaging(page) {
  await portal.goto(page, '/catalog/default/component/storefront/gitlab-env');
  const graph = await resourceGraph(page, 'staging');
  await live(page);
  return graph;
}

test('tour: the tab, the drawer, an action, the logs, the overview', async () => {
  const page = await portal.page();
  // Tall enough for the cards and the graph under them.
  await page.setViewportSize({ width: 1440, height: 1500 });
  const graph = await openStaging(page);
  // From the tab's own tabs down: the entity's header is Backstage's.
  await page.evaluate(() => {
    const tabs = document.querySelector('[aria-label="Environments views"]');
    let scroller = tabs.parentElement;
    while (scroller && scroller.scrollHeight <= scroller.clientHeight)
      scroller = scroller.parentElement;
    const target = scroller ?? document.scrollingElement;
    target.scrollTop +=
      tabs.getBoundingClientRect().top -
      (scroller ? scroller.getBoundingClientRect().top : 0) -
      16;
  });
  await page.waitForTimeout(400);
  const box = await graph.boundingBox();
  assert.ok(box.y + box.height * 0.6 < 1500, 'most of the graph is in view');
  await picture(page, 'entity-tab');
  await page.setViewportSize({ width: 1440, height: 1000 });

  await graph.locator('.react-flow__node[aria-label^="Pod "]').first().click();
  const drawer = page.getByRole('dialog', { name: /^Pod / });
  await drawer.getByText('Owner chain').waitFor({ timeout: TIMEOUT });
  await page.waitForTimeout(400);
  await picture(page, 'tour-drawer');
  await drawer.getByRole('button', { name: 'Close' }).click();

  await graph
    .locator('.react-flow__node[aria-label^="Deployment "]')
    .first()
    .click();
  const deployment = page.getByRole('dialog', { name: /^Deployment / });
  await deployment
    .getByRole('button', { name: 'Scale', exact: true })
    .click({ timeout: TIMEOUT });
  const dialog = page.getByRole('dialog', { name: /^Scale Deployment / });
  await dialog.getByLabel('kubectl command', { exact: true }).waitFor();
  await page.waitForTimeout(400);
  await picture(page, 'tour-action');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await deployment.getByRole('tab', { name: 'Logs' }).click();
  await page.waitForFunction(
    () =>
      (document.querySelector('[role="log"]')?.textContent ?? '').length > 40,
    null,
    { timeout: TIMEOUT },
  );
  await page.waitForTimeout(400);
  await picture(page, 'tour-logs');

  const overview = await portal.page();
  await portal.goto(overview, '/gitlab-env');
  await overviewLoaded(overview);
  await overview
    .getByRole('table', { name: 'Production environments' })
    .waitFor();
  await picture(overview, 'tour-overview');
});
