// The "Access and namespaces" view of an entity, in Chromium against the demo
// portal: the ci_access decisions per environment and agent, and a stale
// review namespace found and deleted through the confirmation dialog.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';

const TIMEOUT = 30_000;
const STALE = 'checkout-api-review';

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

test('shows which rule decides each environment and deletes a stale review namespace', async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/checkout-api/gitlab-env?view=access',
  );

  const matrix = page.getByRole('table', {
    name: 'Access by environment and agent',
  });
  await matrix.waitFor({ timeout: TIMEOUT });
  const staging = matrix.getByRole('row', { name: /^staging/ });
  await staging
    .getByText('namespace checkout-api-staging')
    .waitFor({ timeout: TIMEOUT });
  assert.match(await staging.textContent(), /groups\[0\] \(acme\) · rule 2/);

  // The try-it box points at the position of a parse error.
  await page
    .getByLabel('rules:if expression')
    .fill('$CI_COMMIT_BRANCH = "main"');
  const marker = page.getByLabel('Error position');
  await marker.waitFor({ timeout: TIMEOUT });
  assert.match(await marker.textContent(), /\^ position 18/);

  const stale = page.getByRole('table', { name: 'Stale namespaces' });
  const row = stale.getByRole('row', { name: new RegExp(STALE) });
  await row.waitFor({ timeout: TIMEOUT });
  const rowText = await row.textContent();
  assert.match(rowText, /ci_access rule of review\/legacy-pay \(stopped\)/);
  assert.match(rowText, /Flux/);
  await portal.screenshot(page, 'ci-access-stale');

  await row.getByRole('button', { name: `Delete namespace ${STALE}` }).click();
  const dialog = page.getByRole('dialog', {
    name: `Delete namespace ${STALE}?`,
  });
  await dialog.waitFor({ timeout: TIMEOUT });
  const dialogText = await dialog.textContent();
  assert.match(dialogText, /1 Deployment/);
  assert.match(dialogText, new RegExp(`kubectl delete namespace ${STALE}`));
  await portal.screenshot(page, 'ci-access-confirm');
  await dialog.getByRole('button', { name: `Delete ${STALE}` }).click();

  await page
    .getByText(`Namespace ${STALE} is being deleted (Terminating).`)
    .waitFor({ timeout: TIMEOUT });
  await page
    .getByText('No namespace left behind by stopped or deleted environments.')
    .waitFor({ timeout: TIMEOUT });
  assert.deepEqual(page.errors.filter(isAppError), []);
});

// As in entity-tab.test.mjs: React's development warnings and the logged
// HTTP errors of panels that explain them are no failures of the page.
function isAppError(text) {
  if (/Failed to load resource: the server responded/.test(text)) return false;
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}

test('the overview lists namespaces left behind across all agents, biggest first', async () => {
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  await page
    .getByRole('button', { name: 'Find namespaces left behind' })
    .click({ timeout: TIMEOUT });
  const table = page.getByRole('table', { name: 'Stale namespaces' });
  await table.waitFor({ timeout: TIMEOUT });
  const names = await table
    .locator('tbody th')
    .evaluateAll(cells => cells.map(c => c.textContent));
  console.log(`stale namespaces:\n  ${names.join('\n  ')}`);
  assert.ok(names.some(n => n.startsWith('review-push-v1-gb4nik-103-3')));
  // review/push-v2 is available, only filtered out of the entity's tab.
  assert.ok(!names.some(n => n.startsWith('review-push-v2-c9p9nq-103-3')));
  const managed = table.getByRole('row', {
    name: /review-push-v1-gb4nik-103-3/,
  });
  assert.match(await managed.textContent(), /GitLab's to delete \(on_stop\)/);
  await portal.screenshot(page, 'ci-access-overview');
  assert.deepEqual(page.errors.filter(isAppError), []);
});
