// Accessibility (issue 29): axe-core, injected into the page, finds no
// serious or critical violation on the Environments tab, the overview and
// the dialogs; and the keyboard alone walks from the tab to a graph node,
// its drawer, an action's dialog and the logs.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { axeViolations, tabTo } from '../lib/look.mjs';
import {
  namespaceDeleteDialog,
  overviewLoaded,
  resourceGraph,
} from '../lib/tab.mjs';

const TIMEOUT = 60_000;

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

function report(where, violations) {
  console.log(
    `axe on ${where}: ${violations.length} serious or critical${violations
      .map(v => `\n  ${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`)
      .join('')}`,
  );
}

async function openTab(page, entity, environment) {
  await portal.goto(
    page,
    `/catalog/default/component/${entity}/gitlab-env?env=${environment}`,
  );
  return resourceGraph(page, environment);
}

test('axe finds no serious violation on the Environments tab, its drawer and an action’s dialog', async () => {
  const page = await portal.page();
  const graph = await openTab(page, 'storefront', 'staging');
  let violations = await axeViolations(page, 'main');
  report('the Environments tab', violations);
  assert.deepEqual(violations, []);

  await graph
    .locator('.react-flow__node[aria-label^="Deployment "]')
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: /^Deployment / });
  await drawer.getByRole('tab', { name: 'Summary' }).waitFor();
  await drawer.getByRole('button', { name: 'Scale', exact: true }).waitFor();
  violations = await axeViolations(page, '[role="dialog"]');
  report('the drawer', violations);
  assert.deepEqual(violations, []);

  await drawer.getByRole('button', { name: 'Scale', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Scale Deployment / });
  await dialog.waitFor();
  violations = await axeViolations(page, '.v5-MuiDialog-root');
  report('the scale dialog', violations);
  assert.deepEqual(violations, []);
});

test('axe finds no serious violation on the overview, its clean-up list and the access page’s dialog', async () => {
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  await overviewLoaded(page);
  await page
    .getByRole('button', { name: 'Find namespaces left behind' })
    .click();
  await page
    .getByRole('table', { name: 'Stale namespaces' })
    .waitFor({ timeout: TIMEOUT });
  let violations = await axeViolations(page, 'main');
  report('the overview', violations);
  assert.deepEqual(violations, []);

  const { page: access } = await namespaceDeleteDialog(
    portal,
    'storefront',
    'storefront-review-old-checkout',
  );
  violations = await axeViolations(access, 'main');
  report('the access page', violations);
  assert.deepEqual(violations, []);
  violations = await axeViolations(access, '.v5-MuiDialog-root');
  report('the namespace-delete dialog', violations);
  assert.deepEqual(violations, []);
});

test('the keyboard alone goes from the tab to a graph node, its drawer, an action’s dialog and the logs', async () => {
  const page = await portal.page();
  await openTab(page, 'storefront', 'staging');

  // Tab to the card of another environment and open it with Enter.
  await tabTo(
    page,
    () =>
      document.activeElement?.getAttribute('title') === 'production/us-region',
  );
  await page.keyboard.press('Enter');
  await page.waitForURL(/env=production-us-reg/, { timeout: TIMEOUT });
  await resourceGraph(page, 'production/us-region');

  // Tab into the graph to the Deployment; Enter opens its drawer.
  await tabTo(page, () =>
    document.activeElement
      ?.getAttribute('aria-label')
      ?.startsWith('Deployment '),
  );
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: /^Deployment / });
  await drawer
    .getByRole('tab', { name: 'Summary' })
    .waitFor({ timeout: TIMEOUT });
  await drawer
    .getByRole('button', { name: 'Restart', exact: true })
    .waitFor({ timeout: TIMEOUT });

  // Tab to Restart; Enter opens its confirmation, Escape leaves it untouched.
  await tabTo(page, () => document.activeElement?.textContent === 'Restart');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /^Restart Deployment / });
  await dialog.waitFor({ timeout: TIMEOUT });
  assert.ok(
    await dialog.evaluate(d =>
      d.closest('[role="presentation"]').contains(document.activeElement),
    ),
    'the focus moves into the dialog',
  );
  await portal.screenshot(page, 'keyboard-restart-dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });

  // Back in the drawer: to its tabs, then arrows to Logs.
  await tabTo(
    page,
    () => document.activeElement?.getAttribute('role') === 'tab',
  );
  for (let i = 0; i < 4; i++) {
    if (
      (await page.evaluate(() => document.activeElement?.textContent)) ===
      'Logs'
    )
      break;
    await page.keyboard.press('ArrowRight');
  }
  await page.keyboard.press('Enter');
  const logs = drawer.getByRole('log');
  await logs.waitFor({ timeout: TIMEOUT });
  await page.waitForFunction(
    () =>
      (document.querySelector('[role="log"]')?.textContent ?? '').length > 20,
    null,
    { timeout: TIMEOUT },
  );
  await portal.screenshot(page, 'keyboard-logs');
});
