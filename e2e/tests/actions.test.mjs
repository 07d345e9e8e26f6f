// Actions and logs of an environment's objects, in Chromium against the demo
// portal (whose policy, per e2e/app-config.e2e.yaml, denies the guest pod
// deletes): a rollout restart brings a new ReplicaSet and pods, a followed
// log shows new lines as they come, and no delete is offered.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';

const TIMEOUT = 30_000;
const ENTITY_PATH = '/catalog/default/component/checkout-api/gitlab-env';

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

async function openGraph(page, environment = 'staging') {
  await portal.goto(page, `${ENTITY_PATH}?env=${environment}`);
  const graph = page
    .getByRole('region', { name: `Resources of ${environment}` })
    .getByTestId('resource-graph');
  await graph
    .locator('.react-flow__node')
    .first()
    .waitFor({ timeout: TIMEOUT });
  return graph;
}

/** The names of the graph's nodes of a kind, from their labels. */
async function namesOf(graph, kind) {
  const labels = await graph
    .locator(`.react-flow__node[aria-label^="${kind} "]`)
    .evaluateAll(nodes => nodes.map(node => node.getAttribute('aria-label')));
  return labels.map(label => label.slice(kind.length + 1).replace(/, .*$/, ''));
}

/** Clicks the first pod, or the first whose label ends with `health` (pod groups opened first). */
async function openPod(graph, health = '') {
  const groups = graph.locator(
    '.react-flow__node-siblings[aria-label*=" Pods, "]',
  );
  if ((await groups.count()) > 0) await groups.first().click();
  const pod = graph
    .locator(
      `.react-flow__node[aria-label^="Pod "]${
        health ? `[aria-label$="${health}"]` : ''
      }`,
    )
    .first();
  await pod.waitFor({ timeout: TIMEOUT });
  const podName = (await pod.getAttribute('aria-label'))
    .replace(/^Pod /, '')
    .replace(/, .*$/, '');
  await pod.click();
  return { pod, podName };
}

test('a rollout restart from the graph’s menu brings a new ReplicaSet and its pods', async () => {
  const page = await portal.page();
  const graph = await openGraph(page);
  const [deployment] = await namesOf(graph, 'Deployment');
  assert.ok(deployment, 'the environment has a Deployment');
  const replicaSetsBefore = await namesOf(graph, 'ReplicaSet');

  await graph
    .locator(`.react-flow__node[aria-label^="Deployment ${deployment},"]`)
    .click({ button: 'right' });
  const menu = page.getByRole('menu', {
    name: `Actions of Deployment ${deployment}`,
  });
  const restart = menu.getByRole('menuitem', { name: 'Restart' });
  await page.waitForFunction(
    name =>
      [...document.querySelectorAll('[role="menuitem"]')].some(
        item =>
          item.textContent === 'Restart' &&
          item.getAttribute('aria-disabled') !== 'true' &&
          item.closest('[role="menu"]')?.getAttribute('aria-label') === name,
      ),
    `Actions of Deployment ${deployment}`,
    { timeout: TIMEOUT },
  );
  await restart.click();

  const dialog = page.getByRole('dialog', {
    name: `Restart Deployment ${deployment}?`,
  });
  await dialog.waitFor({ timeout: TIMEOUT });
  assert.equal(
    await dialog.getByLabel('kubectl command', { exact: true }).textContent(),
    `kubectl rollout restart deployment/${deployment} -n checkout-staging`,
  );
  await portal.screenshot(page, 'actions-restart-confirm');
  await dialog.getByRole('button', { name: `Restart ${deployment}` }).click();
  await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });

  // The page reads the environment again after the write: the controller's
  // new ReplicaSet shows, and pods under it.
  await page.waitForFunction(
    ({ before, prefix }) =>
      [
        ...document.querySelectorAll(
          '.react-flow__node[aria-label^="ReplicaSet "]',
        ),
      ]
        .map(node =>
          node
            .getAttribute('aria-label')
            .slice('ReplicaSet '.length)
            .replace(/, .*$/, ''),
        )
        .some(name => name.startsWith(prefix) && !before.includes(name)),
    { before: replicaSetsBefore, prefix: `${deployment}-` },
    { timeout: TIMEOUT },
  );
  const created = (await namesOf(graph, 'ReplicaSet')).find(
    name =>
      name.startsWith(`${deployment}-`) && !replicaSetsBefore.includes(name),
  );
  const hash = created.slice(deployment.length + 1);
  // Its pods are named after it (or grouped under it when there are many).
  await page.waitForFunction(
    prefix =>
      [...document.querySelectorAll('.react-flow__node')].some(node =>
        /^Pod /.test(node.getAttribute('aria-label') ?? '')
          ? node.getAttribute('aria-label').startsWith(`Pod ${prefix}`)
          : false,
      ) ||
      document.querySelectorAll(
        '.react-flow__node-siblings[aria-label*=" Pods, "]',
      ).length > 0,
    `${deployment}-${hash}-`,
    { timeout: TIMEOUT },
  );
  await portal.screenshot(page, 'actions-restart-done');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('following a pod’s log shows new lines as they arrive', async () => {
  const page = await portal.page();
  // Staging's pods crash-loop; production's run.
  const graph = await openGraph(page, 'production');
  const { podName } = await openPod(graph, ', Healthy');

  const drawer = page.getByRole('dialog', { name: `Pod ${podName}` });
  await drawer.getByRole('tab', { name: 'Logs' }).click();
  const log = drawer.getByRole('log', { name: 'Log lines' });
  await log.locator('.log-line').first().waitFor({ timeout: TIMEOUT });
  await drawer.getByText(/lines · following/).waitFor({ timeout: TIMEOUT });
  const before = await log.locator('.log-line').count();
  const lastBefore = await log.locator('.log-line').last().textContent();
  await page.waitForFunction(
    count => document.querySelectorAll('[role="log"] .log-line').length > count,
    before,
    { timeout: TIMEOUT },
  );
  const lastAfter = await log.locator('.log-line').last().textContent();
  assert.notEqual(lastAfter, lastBefore);
  await portal.screenshot(page, 'actions-logs-follow');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('a user whose policy denies pod deletes is offered no delete, and told why', async () => {
  const page = await portal.page();
  const graph = await openGraph(page);
  const { pod, podName } = await openPod(graph);

  const drawer = page.getByRole('dialog', { name: `Pod ${podName}` });
  await drawer.waitFor({ timeout: TIMEOUT });
  const actions = drawer.getByRole('region', { name: 'Actions' });
  await actions.getByText(/^Delete pod: /).waitFor({ timeout: TIMEOUT });
  assert.equal(
    await actions.getByRole('button', { name: 'Delete pod' }).isDisabled(),
    true,
  );
  await portal.screenshot(page, 'actions-delete-denied');
  await drawer.getByRole('button', { name: 'Close' }).click();

  await pod.click({ button: 'right' });
  const menu = page.getByRole('menu', { name: `Actions of Pod ${podName}` });
  const item = menu.getByRole('menuitem', { name: /^Delete pod/ });
  await item.waitFor({ timeout: TIMEOUT });
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[role="menuitem"]')].some(
        node =>
          node.textContent.startsWith('Delete pod') &&
          node.getAttribute('aria-disabled') === 'true' &&
          node.textContent.length > 'Delete pod'.length,
      ),
    null,
    { timeout: TIMEOUT },
  );
  assert.deepEqual(page.errors.filter(isAppError), []);
});

// React's development warnings are not failures of the page, nor are the
// HTTP errors Chromium logs for responses the page explains.
function isAppError(text) {
  if (/Failed to load resource: the server responded/.test(text)) return false;
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}
