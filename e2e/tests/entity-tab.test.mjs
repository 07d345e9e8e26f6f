// The Environments tab of an entity, in Chromium against the demo portal:
// health badges on the cards, the resource graph, the drawer of a degraded
// pod, and how long a 1,000-resource graph takes to become interactive.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIMEOUT = 30_000;

// Each test gets its own browser profile: a second tab of a signed-in
// profile does not reliably show the app or the sign-in page.
let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

test('the cards show each environment with its health', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog/default/component/storefront/gitlab-env');
  const cards = page.locator('section[data-environment]');
  await cards.first().waitFor({ timeout: TIMEOUT });
  // Production comes first, and the folder groups its regions.
  const firstCard = await cards.first().getAttribute('data-environment');
  assert.match(firstCard, /^production/);
  await page
    .getByRole('region', { name: 'Folder production' })
    .waitFor({ timeout: TIMEOUT });

  // Every running environment ends with a badge or a named problem: none
  // is left connecting to its agent.
  const badges = page.getByRole('status', { name: /^Health: / });
  await badges.first().waitFor({ timeout: TIMEOUT });
  await page.waitForFunction(
    () =>
      document.querySelectorAll(
        'section[data-environment] [data-testid="environment-connecting"]',
      ).length === 0,
    null,
    { timeout: TIMEOUT },
  );
  const labels = await badges.evaluateAll(nodes =>
    nodes.map(node => node.getAttribute('aria-label')),
  );
  console.log(`storefront badges:\n  ${labels.join('\n  ')}`);
  assert.ok(labels.length >= 2, 'at least two environments have health');

  // Stopped environments, when the project lists any, are marked so.
  const stopped = page.locator(
    'section[data-environment][data-state="stopped"]',
  );
  for (let i = 0; i < (await stopped.count()); i++) {
    await stopped
      .nth(i)
      .getByText('stopped', { exact: true })
      .waitFor({ timeout: TIMEOUT });
  }
  await portal.screenshot(page, 'entity-tab');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('a degraded pod opens a drawer with its events, YAML and kubectl command', async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/checkout-api/gitlab-env?env=staging',
  );
  const panel = page.getByRole('region', { name: 'Resources of staging' });
  const graph = panel.getByTestId('resource-graph');
  await graph
    .locator('.react-flow__node')
    .first()
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'entity-tab-graph');

  // Degraded pods may sit in a pod group: open it first.
  const groups = graph.locator(
    '.react-flow__node-siblings[aria-label*=" Pods, "]',
  );
  if ((await groups.count()) > 0) await groups.first().click();
  const degradedPod = graph
    .locator('.react-flow__node[aria-label^="Pod "][aria-label$=", Degraded"]')
    .first();
  await degradedPod.waitFor({ timeout: TIMEOUT });
  const label = await degradedPod.getAttribute('aria-label');
  const podName = label.replace(/^Pod /, '').replace(/, Degraded$/, '');
  await degradedPod.click();

  const drawer = page.getByRole('dialog', { name: `Pod ${podName}` });
  await drawer.waitFor({ timeout: TIMEOUT });
  await drawer
    .getByText(`kubectl get pod ${podName} -n checkout-staging -o yaml`)
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'entity-tab-drawer');

  await drawer.getByRole('tab', { name: /^Events/ }).click();
  await drawer
    .getByText(/BackOff/)
    .first()
    .waitFor({ timeout: TIMEOUT });
  await drawer.getByRole('tab', { name: 'YAML' }).click();
  await drawer
    .getByText('CrashLoopBackOff')
    .first()
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'entity-tab-drawer-yaml');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('the wheel over the graph scrolls the page; Ctrl+wheel, or the wheel once the graph is clicked, zooms it', async () => {
  const page = await portal.page();
  await page.setViewportSize({ width: 1280, height: 700 });
  await portal.goto(
    page,
    '/catalog/default/component/checkout-api/gitlab-env?env=staging',
  );
  const graph = page
    .getByRole('region', { name: 'Resources of staging' })
    .getByTestId('resource-graph');
  await graph
    .locator('.react-flow__node')
    .first()
    .waitFor({ timeout: TIMEOUT });
  // The graph in view; the page then scrolls up (the graph may end it).
  await graph.evaluate(node => node.scrollIntoView({ block: 'end' }));
  const viewport = graph.locator('.react-flow__viewport');
  const transform = () =>
    viewport.evaluate(node => getComputedStyle(node).transform);
  // The page scrolls inside Backstage's content area, not the window.
  const scrolled = () =>
    graph.evaluate(node => {
      let total = window.scrollY;
      for (let at = node.parentElement; at; at = at.parentElement)
        total += at.scrollTop;
      return total;
    });
  const box = await graph.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

  const before = await transform();
  const scrollBefore = await scrolled();
  assert.ok(scrollBefore > 0, 'the page is scrolled down to the graph');
  await page.mouse.wheel(0, -200);
  await page.waitForTimeout(300);
  assert.equal(await transform(), before, 'a plain wheel leaves the zoom');
  assert.ok(
    (await scrolled()) < scrollBefore,
    'a plain wheel scrolls the page',
  );
  await graph
    .getByText('Use Ctrl + scroll to zoom, or click the graph first')
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'entity-tab-wheel-hint');

  // The graph moved down with the page: back over it.
  const moved = await graph.boundingBox();
  await page.mouse.move(moved.x + moved.width / 2, moved.y + 60);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -200);
  await page.keyboard.up('Control');
  await page.waitForTimeout(300);
  const zoomed = await transform();
  assert.notEqual(zoomed, before, 'Ctrl+wheel zooms');

  const box2 = await graph.boundingBox();
  await page.mouse.click(box2.x + box2.width - 8, box2.y + 8);
  const scrollAtClick = await scrolled();
  await page.mouse.wheel(0, 200);
  await page.waitForTimeout(300);
  assert.notEqual(await transform(), zoomed, 'once clicked, the wheel zooms');
  assert.equal(await scrolled(), scrollAtClick, 'and the page stays put');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('a 1,000-resource environment becomes interactive quickly (timing printed)', async () => {
  const body = execFileSync(
    'npx',
    ['tsx', 'plugins/gitlab-env-frontend/bench/environmentResponse.ts', '1000'],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const page = await portal.page();
  // The tab loads every running environment in the background; hold this
  // one's first answer until the user opens it, so the clock starts when
  // the data arrives and the graph is what is timed.
  let held;
  let release;
  const requested = new Promise(resolve => (release = resolve));
  const reply = { status: 200, contentType: 'application/json', body };
  // What is timed is the graph, not the transport: the tab is made to poll
  // (a backend without the live route), so the data comes from the
  // resources route this test holds back.
  await page.route(/\/api\/gitlab-env\/live\?/, route =>
    route.fulfill({ status: 404, body: '' }),
  );
  await page.route(
    // GitLab slugs `review/feature-cart` as `review-feature-ca-<hash>`.
    /\/environments\/review-feature-ca[^/]*\/resources/,
    route => {
      if (held) return route.fulfill(reply);
      held = route;
      release();
      return undefined;
    },
  );
  await portal.goto(page, '/catalog/default/component/storefront/gitlab-env');
  await page
    .locator('section[data-environment^="review-feature-ca"]')
    .getByRole('button', { name: 'feature-cart' })
    .click({ timeout: TIMEOUT });
  await requested;
  const arrivedAt = Date.now();
  await held.fulfill(reply);
  const graph = page
    .getByRole('region', { name: 'Resources of review/feature-cart' })
    .getByTestId('resource-graph');
  await graph
    .locator('.react-flow__node')
    .first()
    .waitFor({ timeout: TIMEOUT });
  const renderedAt = Date.now();
  const nodes = await graph.locator('.react-flow__node').count();

  // Interactive: a click on a node opens its drawer. A large graph opens
  // as groups of siblings: a click on the first shows its members first.
  const resources = graph.locator('.react-flow__node-resource');
  if ((await resources.count()) === 0)
    await graph.locator('.react-flow__node-siblings').first().click();
  await resources.first().click({ timeout: TIMEOUT });
  await page.getByRole('dialog').waitFor({ timeout: TIMEOUT });
  const interactiveAt = Date.now();
  console.log(
    `1,000-resource environment: graph drawn ${
      renderedAt - arrivedAt
    } ms after the data arrived, ` +
      `drawer open ${
        interactiveAt - arrivedAt
      } ms after (${nodes} nodes in the viewport DOM when drawn)`,
  );
  await page.keyboard.press('Escape');
  await portal.screenshot(page, 'entity-tab-1000');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

// React's development warnings are not failures of the page, nor are the
// HTTP errors of environments whose panels explain them (Chromium logs every
// failed response).
function isAppError(text) {
  if (/Failed to load resource: the server responded/.test(text)) return false;
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}
