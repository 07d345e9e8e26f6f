// GitOps in the Environments tab, in Chromium against the demo portal: the
// Flux-managed checkout-api production (examples/scenarios/default, prod-us)
// with one object truly missing (checkout-worker, deleted by hand), one
// drifted by `kubectl edit` (checkout-config) with its diff, and one no
// inventory names (checkout-debug), with desired vs live from the repository
// in the live tab's GitOps panel and drawer; storefront staging, whose
// HelmRelease lives in flux-system and whose drift warning is an Event
// there; search-indexer staging, whose namespace comes from a GitLabDeployment
// object in the cluster; and search-indexer load-test, whose namespace comes
// from the GitLab annotations of its workload: both share search-staging, and
// each shows only its own objects (staging by its Flux inventory, load-test by
// label).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';

const TIMEOUT = 30_000;

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

test('a Flux environment: sync, the repository summary, the missing object, the drifted one with its diff, the unmanaged one', async () => {
  const page = await portal.page();
  const desiredAsked = [];
  page.on('request', request => {
    if (/\/environments\/production\/desired$/.test(request.url()))
      desiredAsked.push(request.url());
  });
  await portal.goto(
    page,
    '/catalog/default/component/checkout-api/gitlab-env?env=production',
  );
  const panel = page.getByRole('region', { name: 'Resources of production' });
  const gitops = panel.getByRole('region', { name: 'GitOps' });
  await gitops.waitFor({ timeout: TIMEOUT });
  assert.equal(
    await gitops
      .getByRole('button', { name: 'Kustomization/checkout-api' })
      .count(),
    1,
  );
  assert.equal(await gitops.getByText('Sync: Ready').first().isVisible(), true);
  assert.equal(
    (await gitops.getByTestId('drift-count').textContent()).trim(),
    '1 drifted object',
  );
  // The card counts the same drift, from the objects it follows live.
  assert.equal(
    (
      await page
        .locator('[data-environment="production"]')
        .getByTestId('drifted-count')
        .textContent()
    ).trim(),
    '1 drifted',
  );
  await panel
    .getByRole('status', { name: 'Updates: Live' })
    .waitFor({ timeout: TIMEOUT });
  // The panel's repository summary on the live tab, asked of the desired
  // route when the panel opens: the manifest's CURRENCY differs (USD vs EUR).
  const summary = gitops.getByTestId('desired-summary');
  await summary
    .getByText(/^Repository /)
    .waitFor({ timeout: TIMEOUT })
    .catch(async error => {
      await portal.screenshot(page, 'gitops-panel-summary-failed');
      throw error;
    });
  const summaryText = await summary.textContent();
  console.log(`repository summary: ${summaryText}`);
  assert.match(
    summaryText,
    /^Repository \S+ at [0-9a-f]{8}, \S+: \d+ manifests, [1-9]\d* differ from the cluster/,
  );
  // Asked once for the panel, not again on each live change.
  assert.equal(desiredAsked.length, 1);
  const unmanaged = gitops.getByRole('list', { name: 'Unmanaged objects' });
  assert.deepEqual(
    (await unmanaged.getByRole('button').allTextContents()).sort(),
    ['ConfigMap/checkout-debug'],
  );

  // Only the Deployment deleted by hand is Missing: the Namespace, the
  // ClusterRole and the flux-system ConfigMap the inventory names are found.
  const graph = panel.getByTestId('resource-graph');
  await graph
    .locator('.react-flow__node')
    .first()
    .waitFor({ timeout: TIMEOUT });
  const missingTitles = await graph
    .locator('.react-flow__node [title*="Missing"]')
    .evaluateAll(nodes => nodes.map(node => node.getAttribute('title')));
  console.log(`missing nodes:\n  ${missingTitles.join('\n  ')}`);
  assert.equal(missingTitles.length, 1);
  assert.match(missingTitles[0], /^Deployment checkout-worker/);
  await portal.screenshot(page, 'gitops-panel');

  await gitops
    .getByRole('list', { name: 'Drifted objects' })
    .getByRole('button', { name: 'ConfigMap/checkout-config' })
    .click();
  const drawer = page.getByRole('dialog', {
    name: 'ConfigMap checkout-config',
  });
  const table = drawer.getByRole('table', { name: 'Drifted fields' });
  await table.waitFor({ timeout: TIMEOUT });
  const row = table.locator('tr', { hasText: 'data.CURRENCY' });
  const cells = await row.locator('td').allTextContents();
  assert.deepEqual(cells, [
    'data.CURRENCY',
    'changed',
    '—',
    '"EUR"',
    'kubectl-edit',
  ]);
  await drawer
    .getByText(
      'kubectl get configmap checkout-config -n checkout --show-managed-fields -o yaml',
    )
    .waitFor({ timeout: TIMEOUT });
  // Desired vs live from the repository, asked for when the live tab's
  // drawer opens: the manifest says USD.
  const repository = drawer.getByRole('table', {
    name: 'Fields that differ from the repository',
  });
  await repository.waitFor({ timeout: TIMEOUT });
  assert.deepEqual(
    await repository
      .locator('tr', { hasText: 'data.CURRENCY' })
      .locator('td')
      .allTextContents(),
    ['data.CURRENCY', 'changed', '"USD"', '"EUR"', ''],
  );
  await portal.screenshot(page, 'gitops-drift-drawer');

  await drawer.getByRole('button', { name: 'Close' }).click();
  await gitops
    .getByRole('button', { name: 'Kustomization/checkout-api' })
    .click();
  const flux = page.getByRole('dialog', { name: 'Kustomization checkout-api' });
  const history = flux.getByRole('region', { name: 'History' });
  await history.waitFor({ timeout: TIMEOUT });
  assert.match(
    await history.textContent(),
    /succeeded · ReconciliationSucceeded.*failed · HealthCheckFailed/s,
  );
  await portal.screenshot(page, 'gitops-flux-drawer');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test("a HelmRelease in flux-system: the live tab shows helm-controller's drift warning and says why there is no repository diff", async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/storefront/gitlab-env?env=staging',
  );
  const panel = page.getByRole('region', { name: 'Resources of staging' });
  const gitops = panel.getByRole('region', { name: 'GitOps' });
  await gitops.waitFor({ timeout: TIMEOUT });
  // The panel says plainly why there is no repository comparison.
  await gitops
    .getByTestId('desired-summary')
    .getByText('No desired vs live from the repository: A HelmRelease', {
      exact: false,
    })
    .waitFor({ timeout: TIMEOUT });
  // The drift event is an Event of flux-system, followed live.
  await gitops
    .getByRole('list', { name: 'Drifted objects' })
    .getByRole('button', { name: 'Deployment/storefront-web' })
    .click();
  const drawer = page.getByRole('dialog', {
    name: 'Deployment storefront-web',
  });
  await drawer
    .getByText('changed (0 additions, 1 changes, 0 removals)', { exact: false })
    .first()
    .waitFor({ timeout: TIMEOUT });
  const desired = drawer.getByRole('region', { name: 'Desired vs live' });
  await desired
    .getByText('No desired vs live from the repository: A HelmRelease', {
      exact: false,
    })
    .waitFor({ timeout: TIMEOUT });
  assert.match(
    await desired.textContent(),
    /Helm values and templates are not compared/,
  );
  await portal.screenshot(page, 'gitops-helm-drift-drawer');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test(
  'an environment mapped to its namespace by a GitLabDeployment says so',
  { timeout: 180_000 },
  async () => {
    const page = await portal.page();
    await portal.goto(
      page,
      '/catalog/default/component/search-indexer/gitlab-env?env=staging',
    );
    const panel = page.getByRole('region', { name: 'Resources of staging' });
    // The list waits for every environment's health, and KAS looks for the
    // disconnected edge agent's tunnel for 20 s before the development
    // environment's read fails (REAL_TUNNEL_POOL.findTimeoutMs).
    await panel.waitFor({ timeout: 3 * TIMEOUT }).catch(async error => {
      await portal.screenshot(page, 'gitops-gitlabdeployment-failed');
      throw error;
    });
    const source = panel.getByTestId('namespace-source');
    await source.waitFor({ timeout: TIMEOUT }).catch(async error => {
      await portal.screenshot(page, 'gitops-gitlabdeployment-failed');
      throw error;
    });
    assert.equal(
      (await source.textContent()).trim(),
      'namespace from the GitLabDeployment search-indexer-staging (Ready=True: namespace search-staging exists)',
    );
    assert.match(await panel.textContent(), /namespace search-staging/);
    // load-test's Deployment shares the namespace: staging keeps to its
    // Flux inventory.
    assert.match(
      await panel.getByTestId('shared-namespace').textContent(),
      /^The namespace is shared with environment load-test: its objects are those of the inventory of Kustomization flux-system\/search-indexer-staging, and those nobody claims\. \d+ objects of others hidden \(GitLab environment load-test of acme-platform-search-indexer\)\.$/,
    );
    await panel
      .getByTestId('resource-graph')
      .locator('.react-flow__node')
      .first()
      .waitFor({ timeout: TIMEOUT });
    const titles = await nodeTitles(panel);
    assert.ok(titles.some(t => t.startsWith('Deployment search-api')));
    assert.ok(!titles.some(t => t.includes('search-loadgen')), titles.join());
    await portal.screenshot(page, 'gitops-gitlabdeployment');
    assert.deepEqual(page.errors.filter(isAppError), []);
  },
);

test(
  'an environment mapped by the GitLab annotations of its workload, narrowed in the namespace it shares',
  { timeout: 180_000 },
  async () => {
    const page = await portal.page();
    await portal.goto(
      page,
      '/catalog/default/component/search-indexer/gitlab-env?env=load-test',
    );
    const panel = page.getByRole('region', { name: 'Resources of load-test' });
    // The list waits for the disconnected edge agent (see above).
    await panel.waitFor({ timeout: 3 * TIMEOUT }).catch(async error => {
      await portal.screenshot(page, 'gitops-label-failed');
      throw error;
    });
    const source = panel.getByTestId('namespace-source');
    await source.waitFor({ timeout: TIMEOUT });
    assert.equal(
      (await source.textContent()).trim(),
      'namespace from the workloads carrying its GitLab annotations: Deployment/search-loadgen',
    );
    assert.match(
      await panel.getByTestId('shared-namespace').textContent(),
      /^The namespace is shared with environment staging: its objects are those carrying its GitLab annotations \(app\.gitlab\.com\/env: load-test\), and those nobody claims\. \d+ objects of others hidden \(Kustomization flux-system\/search-indexer-staging\)\.$/,
    );
    const command = panel
      .getByRole('list', { name: 'How the namespace was found' })
      .getByRole('listitem');
    assert.match(
      await command.first().textContent(),
      /^kubectl get deployments,statefulsets,daemonsets -n search-staging -o custom-columns=/,
    );
    await panel
      .getByTestId('resource-graph')
      .locator('.react-flow__node')
      .first()
      .waitFor({ timeout: TIMEOUT });
    const titles = await nodeTitles(panel);
    console.log(`load-test nodes:\n  ${titles.join('\n  ')}`);
    assert.ok(titles.some(t => t.startsWith('Deployment search-loadgen')));
    // Nothing of staging's: not its Deployment, nor its StatefulSet's claim.
    assert.ok(!titles.some(t => t.includes('search-api')), titles.join());
    assert.ok(!titles.some(t => t.includes('search-indexer')), titles.join());
    await portal.screenshot(page, 'gitops-label-mapping');
    assert.deepEqual(page.errors.filter(isAppError), []);
  },
);

/** The titles of the graph's nodes (`Kind name …`). */
function nodeTitles(panel) {
  return panel
    .getByTestId('resource-graph')
    .locator('.react-flow__node [title]')
    .evaluateAll(nodes => nodes.map(node => node.getAttribute('title')));
}

function isAppError(text) {
  if (/Failed to load resource: the server responded/.test(text)) return false;
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}
