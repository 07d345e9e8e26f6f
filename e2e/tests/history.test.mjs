// What changed and when, in Chromium against the demo portal: an
// environment's deployments with what one brought, the confirmations of
// both rollbacks (GitLab's job retry, Kubernetes' rollout undo of a
// Flux-managed Deployment), the versions across environments and a
// promotion diff. (The timeline across a backend restart: e2e/restart.)
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { isAppError } from '../lib/tab.mjs';
import { axeViolations } from '../lib/look.mjs';

const TIMEOUT = 30_000;
const CHECKOUT = '/catalog/default/component/checkout-api/gitlab-env';
const STOREFRONT = '/catalog/default/component/storefront/gitlab-env';

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

test('the history of production lists its deployments, and one shows the commits it brought', async () => {
  const page = await portal.page();
  await portal.goto(page, `${CHECKOUT}?env=production&panel=history`);
  const table = page.getByRole('table', { name: 'Deployments' });
  await table.waitFor({ timeout: TIMEOUT });
  const latest = table.locator('tr[data-deployment="212"]');
  await latest.waitFor({ timeout: TIMEOUT });
  assert.match(await latest.innerText(), /success/);
  assert.match(await latest.innerText(), /v3\.8\.2/);
  assert.match(await latest.innerText(), /Alice Platform/);
  assert.match(await latest.innerText(), /pipeline #\d+/);

  await latest
    .getByRole('button', { name: 'Show what deployment #212 brought' })
    .click();
  const brought = page.getByRole('region', {
    name: 'What deployment #212 brought',
  });
  const commits = brought.getByRole('table', { name: 'Commits' });
  await commits.waitFor({ timeout: TIMEOUT });
  const commitRows = await commits.locator('tbody tr').count();
  assert.ok(commitRows > 0, 'the deployment lists its commits');
  assert.match(
    await brought.innerText(),
    new RegExp(
      `Since deployment #\\d+ \\(v3\\.8\\.0\\): ${commitRows} commits?`,
    ),
  );
  await portal.screenshot(page, 'history-deployment-commits');
  assert.deepEqual(await axeViolations(page, 'main'), []);
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('GitLab’s rollback asks first, naming the job and the API call, and GitLab runs it', async () => {
  const page = await portal.page();
  await portal.goto(page, `${STOREFRONT}?env=review-feature-ca`);
  // GitLab slugs review/feature-cart with a hash: open its card, then History.
  await page
    .getByRole('button', { name: 'feature-cart' })
    .click({ timeout: TIMEOUT });
  const panel = page.getByRole('region', {
    name: 'Resources of review/feature-cart',
  });
  await panel.getByRole('tab', { name: 'History' }).click({ timeout: TIMEOUT });
  const rollback = panel.getByRole('button', {
    name: 'Roll back to deployment #51',
  });
  await rollback.waitFor({ timeout: TIMEOUT });
  await page.waitForFunction(
    () =>
      !document
        .querySelector('[aria-label="Roll back to deployment #51"]')
        ?.hasAttribute('disabled'),
    null,
    { timeout: TIMEOUT },
  );
  await rollback.click();
  const dialog = page.getByRole('dialog', {
    name: 'Roll review/feature-cart back to deployment #51?',
  });
  await dialog.waitFor({ timeout: TIMEOUT });
  const text = await dialog.innerText();
  assert.match(
    text,
    /GitLab runs job .* #\d+ .*again, as its “Rollback environment” does/,
  );
  const command = await dialog
    .getByLabel('GitLab API command', { exact: true })
    .innerText();
  assert.match(
    command,
    /^curl --request POST --header "PRIVATE-TOKEN: \$GITLAB_TOKEN" http:\/\/localhost:7108\/api\/v4\/projects\/acme%2Fshop%2Fstorefront\/jobs\/\d+\/retry$/,
  );
  await portal.screenshot(page, 'history-gitlab-rollback-confirmation');
  await dialog.getByRole('button', { name: /^Re-run job #\d+$/ }).click();
  await panel
    .getByRole('alert')
    .filter({ hasText: /job/i })
    .first()
    .waitFor({ timeout: TIMEOUT });
  await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('Kubernetes’ rollback shows the template diff, says Flux reverts it, offers to suspend Flux first, and the kubectl commands', async () => {
  const page = await portal.page();
  await portal.goto(page, `${CHECKOUT}?env=production&panel=history`);
  const revisions = page.getByRole('table', {
    name: 'Revisions of Deployment checkout-api',
  });
  await revisions.waitFor({ timeout: TIMEOUT });
  const roll = revisions.getByRole('button', {
    name: 'Roll back Deployment checkout-api to revision 3',
  });
  await page.waitForFunction(
    () =>
      document.querySelector(
        '[aria-label="Roll back Deployment checkout-api to revision 3"]:not([disabled])',
      ),
    null,
    { timeout: TIMEOUT },
  );
  await roll.click();
  const dialog = page.getByRole('dialog', {
    name: 'Roll Deployment checkout-api back to revision 3?',
  });
  await dialog.waitFor({ timeout: TIMEOUT });
  const diff = await dialog
    .getByRole('table', { name: 'Pod template changes' })
    .innerText();
  assert.match(
    diff,
    /spec\.containers\[name=api\]\.image\s+registry\.example\.com\/acme\/shop\/checkout-api:3\.8\.2\s+registry\.example\.com\/acme\/shop\/checkout-api:3\.8\.0/,
  );
  assert.match(await dialog.innerText(), /Kustomization checkout-api/);
  const commands = dialog.getByRole('list', { name: 'kubectl commands' });
  assert.equal(
    await commands.innerText(),
    'kubectl rollout undo deployment/checkout-api --to-revision=3 -n checkout',
  );
  await dialog
    .getByRole('checkbox', {
      name: /^Suspend Kustomization checkout-api first/,
    })
    .check();
  assert.match(
    await commands.innerText(),
    /^kubectl patch kustomization\.kustomize\.toolkit\.fluxcd\.io\/checkout-api -n flux-system --type=merge -p '\{"spec":\{"suspend":true\}\}'\s+kubectl rollout undo deployment\/checkout-api --to-revision=3/,
  );
  await portal.screenshot(page, 'history-kubernetes-rollback-confirmation');
  assert.deepEqual(await axeViolations(page, '[role="dialog"]'), []);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('the versions across environments say how far production is behind, and a promotion diff lists what would change', async () => {
  const page = await portal.page();
  await portal.goto(page, `${CHECKOUT}?view=versions`);
  const matrix = page.getByRole('table', {
    name: 'Versions across environments',
  });
  await matrix.waitFor({ timeout: TIMEOUT });
  const production = matrix.locator('tr[data-environment="production"]');
  assert.match(
    await production.innerText(),
    /production is \d+ commits? behind staging/,
  );
  await page.getByRole('button', { name: 'Compare' }).click();
  const diff = page.getByRole('table', {
    name: /^Differences from staging to production$/,
  });
  await diff.waitFor({ timeout: TIMEOUT });
  const rows = await diff.locator('tbody tr').allInnerTexts();
  assert.ok(
    rows.some(row => /Image · container api/.test(row)),
    `an image differs: ${rows.join(' | ')}`,
  );
  await portal.screenshot(page, 'history-versions-promotion');
  assert.deepEqual(await axeViolations(page, 'main'), []);
  assert.deepEqual(page.errors.filter(isAppError), []);
});
