// Live environments, in Chromium against the demo portal: a change in the
// cluster reaches the open page through the backend's /live stream without
// a reload. The test writes to the simulator the way a user of the cluster
// would: scaling through the Kubernetes API (via KAS), and crashing a pod
// through the simulator's admin API (e2e/app-config.e2e.yaml enables it).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { SIMULATOR, crashPod } from '../lib/simulator.mjs';

const TIMEOUT = 30_000;
const KAS = `${SIMULATOR}/-/kubernetes-agent/k8s-proxy`;
// The demo scenario: notifications' development environment runs on the
// nonprod agent (id 3) in namespace notifications-dev.
const AGENT = { id: 3, name: 'nonprod' };
const NAMESPACE = 'notifications-dev';
const DEPLOYMENT = 'notifications-api';
const TOKEN = 'glpat-demo-backstage-bot';

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

async function kas(path, init = {}) {
  const response = await fetch(`${KAS}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer pat:${AGENT.id}:${TOKEN}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  const body = await response.json();
  assert.ok(
    response.ok,
    `${path}: HTTP ${response.status} ${JSON.stringify(body)}`,
  );
  return body;
}

async function scale(replicas) {
  const path = `/apis/apps/v1/namespaces/${NAMESPACE}/deployments/${DEPLOYMENT}/scale`;
  const current = await kas(path);
  await kas(path, {
    method: 'PUT',
    body: JSON.stringify({ ...current, spec: { replicas } }),
  });
}

/** The overview filtered by `query`, once it is loaded and live. */
async function openLiveOverview(page, query) {
  await portal.goto(page, `/gitlab-env?q=${query}`);
  await page
    .getByText(/^Showing \d+ of \d+ environments$/)
    .waitFor({ timeout: TIMEOUT });
  await page
    .getByRole('progressbar', { name: 'Loading environments' })
    .waitFor({ state: 'detached', timeout: TIMEOUT });
  await page
    .getByRole('status', { name: 'Updates: Live' })
    .waitFor({ timeout: TIMEOUT });
}

async function podsOf(deployment) {
  const list = await kas(`/api/v1/namespaces/${NAMESPACE}/pods`);
  return list.items
    .map(pod => pod.metadata.name)
    .filter(name => name.startsWith(`${deployment}-`));
}

test('scaling a deployment and crash-looping a pod show on the open page without a reload', async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/notifications/gitlab-env?env=development',
  );
  const panel = page.getByRole('region', { name: 'Resources of development' });
  const graph = panel.getByTestId('resource-graph');
  await graph
    .locator('.react-flow__node')
    .first()
    .waitFor({ timeout: TIMEOUT });
  await panel
    .getByRole('status', { name: 'Updates: Live' })
    .waitFor({ timeout: TIMEOUT });
  // A reload would lose this.
  await page.evaluate(() => {
    window.__sameDocument = true;
  });

  const apiPods = graph.locator(
    `.react-flow__node[aria-label^="Pod ${DEPLOYMENT}-"]`,
  );
  const before = await apiPods.count();
  const badge = panel.getByRole('status', { name: /^Health: / }).first();
  const badgeBefore = await badge.getAttribute('aria-label');
  console.log(`before: ${before} ${DEPLOYMENT} pods, ${badgeBefore}`);
  assert.ok(before >= 1, 'the deployment has a pod on the page');
  assert.doesNotMatch(badgeBefore, /^Health: Degraded/);
  const firstPod = apiPods.first();
  const firstPodId = await firstPod.getAttribute('data-id');
  const placeBefore = await firstPod.evaluate(node => node.style.transform);

  await scale(before + 2);
  await page.waitForFunction(
    ([selector, count]) => document.querySelectorAll(selector).length === count,
    [`.react-flow__node[aria-label^="Pod ${DEPLOYMENT}-"]`, before + 2],
    { timeout: TIMEOUT },
  );
  const placeAfter = await graph
    .locator(`.react-flow__node[data-id="${firstPodId}"]`)
    .evaluate(node => node.style.transform);
  assert.equal(
    placeAfter,
    placeBefore,
    'the pod that was there kept its place',
  );
  await portal.screenshot(page, 'live-scaled');

  const [victim] = await podsOf(DEPLOYMENT);
  await crashPod(AGENT.name, NAMESPACE, victim);
  await graph
    .locator(`.react-flow__node[aria-label="Pod ${victim}, Degraded"]`)
    .waitFor({ timeout: TIMEOUT });
  await panel
    .getByRole('status', { name: /^Health: Degraded/ })
    .first()
    .waitFor({ timeout: TIMEOUT });
  await page
    .getByRole('region', { name: 'development', exact: true })
    .getByRole('status', { name: /^Health: Degraded/ })
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'live-degraded');

  assert.equal(await page.evaluate(() => window.__sameDocument), true);
  assert.deepEqual(page.errors.filter(isAppError), []);
  // Put the scenario back for the tests that follow: the crashed pod is
  // replaced by a healthy one, and the replicas go back.
  await kas(`/api/v1/namespaces/${NAMESPACE}/pods/${victim}`, {
    method: 'DELETE',
  });
  await scale(before);
});

test('the overview row of an environment turns Degraded when one of its pods crash-loops', async () => {
  const page = await portal.page();
  await openLiveOverview(page, 'notifications');
  const row = page
    .getByTestId('overview-row')
    .filter({ hasText: 'acme/platform/notifications' })
    .filter({ has: page.getByRole('cell', { name: /^development/ }) });
  await row.first().waitFor({ timeout: TIMEOUT });
  assert.equal(await row.count(), 1);
  const badge = row.getByRole('status', { name: /^Health: / }).first();
  assert.doesNotMatch(
    await badge.getAttribute('aria-label'),
    /^Health: Degraded/,
  );

  const [victim] = await podsOf(DEPLOYMENT);
  await crashPod(AGENT.name, NAMESPACE, victim);
  await row
    .getByRole('status', { name: /^Health: Degraded/ })
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'live-overview-degraded');
  assert.deepEqual(page.errors.filter(isAppError), []);
  await kas(`/api/v1/namespaces/${NAMESPACE}/pods/${victim}`, {
    method: 'DELETE',
  });
});

test('widening the overview filter keeps the rows already followed and resumes them instead of reloading them', async () => {
  const page = await portal.page();
  const streams = [];
  page.on('request', request => {
    if (!request.url().includes('/api/gitlab-env/live?')) return;
    const url = new URL(request.url());
    streams.push({
      fresh: url.searchParams.getAll('environment'),
      resumed: url.searchParams.getAll('resume'),
      lastEventId: request.headers()['last-event-id'],
    });
  });
  await openLiveOverview(page, 'notifications');
  assert.ok(streams.length >= 1, 'the overview opened a live stream');
  const first = streams[streams.length - 1];
  assert.ok(first.fresh.length >= 1);
  assert.ok(
    first.fresh.every(key =>
      key.startsWith('component:default/notifications/'),
    ),
    JSON.stringify(first),
  );
  // Let the stream send its first id: it then holds those environments.
  await new Promise(resolve => setTimeout(resolve, 5_000));
  const opened = streams.length;

  const search = page
    .getByRole('search', { name: 'Filter environments' })
    .getByRole('textbox', { name: 'Search' });
  await search.fill('');
  await search.press('Enter');
  const deadline = Date.now() + TIMEOUT;
  while (streams.length === opened && Date.now() < deadline)
    await new Promise(resolve => setTimeout(resolve, 100));
  const widened = streams[streams.length - 1];
  console.log(
    `after widening: ${widened.resumed.length} resumed, ${widened.fresh.length} new`,
  );
  assert.ok(widened.lastEventId, 'the wider stream sends Last-Event-ID');
  // Those it streamed are resumed (one it could not follow, such as an
  // environment without an agent, starts over); the others are new.
  assert.ok(
    widened.resumed.includes('component:default/notifications/development'),
    JSON.stringify(widened),
  );
  assert.ok(
    widened.resumed.every(key => first.fresh.includes(key)),
    JSON.stringify(widened),
  );
  assert.ok(
    widened.fresh.some(
      key => !key.startsWith('component:default/notifications/'),
    ),
    JSON.stringify(widened),
  );
  await page
    .getByRole('status', { name: 'Updates: Live' })
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'live-overview-widened');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

function isAppError(text) {
  if (/Failed to load resource: the server responded/.test(text)) return false;
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}
