// Usage and the Kubernetes plugin's tab, in Chromium against the demo portal
// (the simulator's prod-us runs metrics-server and a kube-prometheus-stack
// Prometheus): a workload's drawer shows its CPU and memory against requests
// and limits, the trend from Prometheus with its PromQL and the kubectl top
// command; Checkout API's Kubernetes tab (the Backstage Kubernetes plugin)
// lists the clusters behind the GitLab agents.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { axeViolations } from '../lib/look.mjs';
import { openPortal } from '../lib/portal.mjs';

const TIMEOUT = 30_000;

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

test("a workload's Usage tab shows CPU and memory against requests and limits, and the trend from the cluster's Prometheus", async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/checkout-api/gitlab-env?env=production',
  );
  const graph = page
    .getByRole('region', { name: 'Resources of production' })
    .getByTestId('resource-graph');
  const deployment = graph.locator(
    '.react-flow__node[aria-label^="Deployment checkout-api,"]',
  );
  await deployment.waitFor({ timeout: TIMEOUT });
  await deployment.click();
  const drawer = page.getByRole('dialog', { name: 'Deployment checkout-api' });
  await drawer.getByRole('tab', { name: 'Usage' }).click();

  const now = drawer.getByRole('table', { name: 'Usage now' });
  await now.waitFor({ timeout: TIMEOUT });
  const cpu = await now.getByRole('row', { name: /^CPU/ }).innerText();
  assert.match(cpu, /^CPU\s+\d+m\s+not set\s+not set/);
  // checkout-api's containers set no requests: marked.
  await drawer
    .getByText('No requests set: CPU, Memory')
    .first()
    .waitFor({ timeout: TIMEOUT });
  await drawer
    .getByText(
      "From the cluster's Prometheus (monitoring/kube-prometheus-stack-prometheus:http-web)",
      { exact: false },
    )
    .waitFor({ timeout: TIMEOUT });
  const promql = await drawer.getByRole('list', { name: 'PromQL' }).innerText();
  assert.match(
    promql,
    /sum\(rate\(container_cpu_usage_seconds_total\{namespace="checkout",pod=~"checkout-api-/,
  );
  assert.match(
    await drawer
      .getByRole('img', { name: /^CPU trend from/ })
      .getAttribute('aria-label'),
    /^CPU trend from \d+m to \d+m$/,
  );
  const pods = drawer.getByRole('table', { name: 'Pods' });
  assert.ok(
    (await pods.getByRole('row').count()) > 1,
    'the workload lists its pods',
  );
  assert.match(
    await drawer.getByRole('list', { name: 'kubectl top' }).innerText(),
    /^kubectl top pod -n checkout -l '.+' --containers/,
  );
  await portal.screenshot(page, 'usage-workload');
  assert.deepEqual(await axeViolations(page, '[role="dialog"]'), []);
  assert.deepEqual(page.errors, []);
});

test("Checkout API's Kubernetes tab (the Backstage Kubernetes plugin) reads the clusters behind the GitLab agents", async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog/default/component/checkout-api/kubernetes');
  try {
    // One accordion per cluster the entity's objects were read from, named
    // by the cluster's title; no error panel for the agents' clusters.
    await page
      .getByText('prod-us (acme/infra)')
      .first()
      .waitFor({ timeout: TIMEOUT });
    await page.getByText('nonprod (acme/infra)').first().waitFor();
    assert.equal(
      await page.getByText('has no KubernetesAuthProvider').count(),
      0,
    );
  } finally {
    await portal.screenshot(page, 'kubernetes-tab');
  }
  await portal.screenshot(page, 'kubernetes-tab');
});
