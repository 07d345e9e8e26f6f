// A first visit, as a person sees it (issue 29): where the guest lands, the
// tab opening on the graph that most needs attention, names that keep their
// distinguishing end, edges that stay out of other boxes, the drawer's tab
// bar and close button, what a card counts and how its errors look, and
// what the live age means.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { isAppError, live, resourceGraph } from '../lib/tab.mjs';

const TIMEOUT = 40_000;
// ArgoCD's order, healthiest first (the engine's HEALTH_STATUSES).
const SEVERITY = [
  'Healthy',
  'Suspended',
  'Progressing',
  'Missing',
  'Degraded',
  'Unknown',
];

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

test('after Enter the guest lands on the catalog’s components, not a 404', async () => {
  const page = await portal.page();
  await portal.goto(page, '/');
  await page.waitForURL(/\/catalog\?/, { timeout: TIMEOUT });
  assert.equal(new URL(page.url()).pathname, '/catalog');
  await page
    .getByRole('link', { name: 'Storefront', exact: true })
    .first()
    .waitFor({ timeout: TIMEOUT });
  assert.equal(await page.getByText(/ERROR 404/i).count(), 0);
  await portal.screenshot(page, 'first-visit-landing');
});

test('the tab opens on the graph of the environment that most needs attention, names it in the address, and opens another in one click', async () => {
  const page = await portal.page();
  await portal.goto(page, '/catalog/default/component/storefront/gitlab-env');
  await page.waitForURL(/[?&]env=/, { timeout: TIMEOUT });
  const chosen = new URL(page.url()).searchParams.get('env');

  // The worst health among the running environments' cards, the cards'
  // order breaking ties, is the one opened.
  const cards = await page
    .locator('section[data-environment]')
    .evaluateAll(sections =>
      sections.map(section => ({
        slug: section.getAttribute('data-environment'),
        stopped: section.getAttribute('data-state') === 'stopped',
        health: section
          .querySelector('[role="status"][aria-label^="Health: "]')
          ?.getAttribute('aria-label')
          .match(/^Health: (\w+)/)?.[1],
      })),
    );
  const running = cards.filter(card => !card.stopped && card.health);
  const worst = running.reduce((a, b) =>
    SEVERITY.indexOf(b.health) > SEVERITY.indexOf(a.health) ? b : a,
  );
  console.log(
    `storefront cards: ${cards
      .map(c => `${c.slug} ${c.health ?? '-'}`)
      .join(', ')}; opened ${chosen}`,
  );
  assert.equal(chosen, worst.slug);
  const selected = page.locator(`section[data-environment="${chosen}"]`);
  assert.equal(await selected.getAttribute('data-selected'), 'true');
  const name = await selected.locator('h3 button').getAttribute('title');
  const graph = await resourceGraph(page, name);
  // No button stands between the tab and the graph.
  assert.equal(
    await page.getByRole('button', { name: /^Resources$/i }).count(),
    0,
  );
  assert.ok((await graph.locator('.react-flow__node').count()) > 3);
  await portal.screenshot(page, 'first-visit-tab');

  // Another environment is one click away, and the address follows.
  await page
    .locator('section[data-environment^="production-us-reg"]')
    .getByRole('button', { name: 'us-region' })
    .click();
  await page.waitForURL(/env=production-us-reg/, { timeout: TIMEOUT });
  await resourceGraph(page, 'production/us-region');

  // A shared address opens what it names.
  const shared = page.url();
  const other = await portal.page();
  await portal.goto(other, new URL(shared).pathname + new URL(shared).search);
  await resourceGraph(other, 'production/us-region');
  assert.deepEqual(page.errors.filter(isAppError), []);
});

test('sibling pods keep their distinguishing end in the graph, the full name on hover and in the drawer', async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/storefront/gitlab-env?env=staging',
  );
  const graph = await resourceGraph(page, 'staging');
  const pods = graph.locator('.react-flow__node[aria-label^="Pod "]');
  await pods.first().waitFor({ timeout: TIMEOUT });
  const seen = await pods.evaluateAll(nodes =>
    nodes.map(node => {
      const box = node.getBoundingClientRect();
      const tail = node.querySelector('[data-name-tail]');
      const head = node.querySelector('[data-name-head]');
      const tailBox = tail?.getBoundingClientRect();
      return {
        name: node
          .getAttribute('aria-label')
          .replace(/^Pod /, '')
          .replace(/, .*$/, ''),
        title: node.querySelector('.gitlab-env-node').getAttribute('title'),
        tail: tail?.textContent,
        tailInside:
          tailBox &&
          tailBox.width > 0 &&
          tailBox.left >= box.left &&
          tailBox.right <= box.right,
        headCut: head ? head.scrollWidth > head.clientWidth : false,
      };
    }),
  );
  console.log(
    `pod names as seen: ${seen
      .map(p => `${p.name} (${p.headCut ? 'cut before ' : ''}${p.tail})`)
      .join(', ')}`,
  );
  assert.ok(seen.length >= 2, 'staging runs at least two pods');
  for (const pod of seen) {
    assert.ok(pod.name.endsWith(pod.tail), `${pod.name} ends with ${pod.tail}`);
    assert.ok(pod.tailInside, `the end of ${pod.name} is in view`);
    assert.match(pod.title, new RegExp(`^Pod ${pod.name}\\b`));
  }
  assert.equal(
    new Set(seen.map(pod => pod.tail)).size,
    seen.length,
    'siblings read differently',
  );

  await pods.first().click();
  const drawer = page.getByRole('dialog', { name: `Pod ${seen[0].name}` });
  const heading = drawer.getByRole('heading', { level: 2 });
  assert.equal(await heading.textContent(), seen[0].name);
  assert.ok(
    await heading.evaluate(h => h.scrollWidth <= h.clientWidth),
    'the drawer shows the whole name',
  );
});

test('edges other than ownership stay out of the boxes of other nodes (demo’s largest graphs)', async () => {
  for (const [entity, environment] of [
    ['search-indexer', 'production'],
    ['storefront', 'staging'],
  ]) {
    const page = await portal.page();
    await portal.goto(
      page,
      `/catalog/default/component/${entity}/gitlab-env?env=${environment}`,
    );
    const graph = await resourceGraph(page, environment);
    await page.waitForTimeout(500);
    const result = await graph.evaluate(root => {
      const boxes = [...root.querySelectorAll('.react-flow__node')].map(n => ({
        id: n.getAttribute('data-id'),
        box: n.getBoundingClientRect(),
      }));
      let edges = 0;
      const crossings = [];
      for (const edge of root.querySelectorAll('.react-flow__edge')) {
        const [source, , target] = (
          edge.getAttribute('aria-label') ?? ''
        ).split(' ');
        const path = edge.querySelector('path.react-flow__edge-path');
        if (!path) continue;
        edges++;
        const matrix = path.getScreenCTM();
        const length = path.getTotalLength();
        const hit = new Set();
        for (let at = 0; at <= length; at += 2) {
          const p = path.getPointAtLength(at).matrixTransform(matrix);
          for (const { id, box } of boxes) {
            if (id === source || id === target) continue;
            if (
              p.x > box.left + 1 &&
              p.x < box.right - 1 &&
              p.y > box.top + 1 &&
              p.y < box.bottom - 1
            )
              hit.add(id);
          }
        }
        for (const id of hit)
          crossings.push(`${source} -> ${target} over ${id}`);
      }
      return { nodes: boxes.length, edges, crossings };
    });
    console.log(
      `${entity} ${environment}: ${result.nodes} nodes, ${result.edges} edges, ${result.crossings.length} crossings of other boxes`,
    );
    assert.deepEqual(result.crossings, []);
    await graph.screenshot({
      path: (
        await portal.screenshot(page, `edges-${entity}-${environment}`)
      ).replace(/\.png$/, '-graph.png'),
    });
  }
});

test('the drawer keeps its tab bar and its close button in place; a card counts resources, not Events', async () => {
  const page = await portal.page();
  await page.setViewportSize({ width: 1280, height: 640 });
  await portal.goto(
    page,
    '/catalog/default/component/storefront/gitlab-env?env=staging',
  );
  let graph = await resourceGraph(page, 'staging');
  const openNode = async (g, label) => {
    await g
      .locator(`.react-flow__node[aria-label^="${label}"]`)
      .first()
      .click();
    const drawer = page.getByRole('dialog').last();
    await drawer
      .getByRole('tab', { name: 'Summary' })
      .waitFor({ timeout: TIMEOUT });
    return drawer;
  };
  let drawer = await openNode(graph, 'Pod ');
  const tabs = drawer.getByRole('tablist');
  const close = drawer.getByRole('button', { name: 'Close' });
  const tabsHeight = (await tabs.boundingBox()).height;
  const closeBox = await close.boundingBox();
  // However long the content, the tab bar keeps its height.
  assert.ok(tabsHeight >= 40, `tab bar ${tabsHeight} px high`);
  await drawer.getByRole('tab', { name: 'YAML' }).click();
  await drawer.getByText('apiVersion').first().waitFor({ timeout: TIMEOUT });
  assert.equal((await tabs.boundingBox()).height, tabsHeight);
  await portal.screenshot(page, 'drawer-yaml-short-window');
  await close.click();

  // Another node, in another environment: the close button is where it was.
  await page
    .locator('section[data-environment^="production-us-reg"]')
    .getByRole('button', { name: 'us-region' })
    .click();
  graph = await resourceGraph(page, 'production/us-region');
  drawer = await openNode(graph, 'HorizontalPodAutoscaler ');
  assert.deepEqual(
    await drawer.getByRole('button', { name: 'Close' }).boundingBox(),
    closeBox,
  );
  assert.equal(
    (await drawer.getByRole('tablist').boundingBox()).height,
    tabsHeight,
  );
  await drawer.getByRole('button', { name: 'Close' }).click();

  // The card's count is what the list shows with every kind, Events aside.
  const card = page.locator('section[data-environment^="production-us-reg"]');
  const counted = Number(
    (await card.getByText(/^\d+ resources$/).textContent()).match(/\d+/)[0],
  );
  const panel = page.getByRole('region', {
    name: 'Resources of production/us-region',
  });
  await panel.getByRole('checkbox', { name: /Show all kinds/ }).check();
  await panel.getByRole('button', { name: 'List view' }).click();
  const table = panel.getByRole('table').first();
  await table.waitFor({ timeout: TIMEOUT });
  const kinds = await table
    .locator('tbody tr')
    .evaluateAll(rows => rows.map(row => row.cells[0]?.textContent ?? ''));
  const events = kinds.filter(kind => kind === 'Event').length;
  console.log(
    `us-region: card counts ${counted}; the list holds ${kinds.length} objects, ${events} of them Events`,
  );
  assert.ok(events > 0, 'the environment has Events');
  assert.equal(counted, kinds.length - events);
});

test('a card that cannot show health says why with an icon; a live panel says what its age means', async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/search-indexer/gitlab-env?env=production',
  );
  const lab = page.locator('section[data-environment="lab"]');
  const alert = lab.getByRole('alert');
  await alert.waitFor({ timeout: TIMEOUT });
  assert.equal(await alert.textContent(), 'The agent has never connected');
  assert.ok((await alert.locator('svg').count()) > 0, 'with its icon');
  const icon = await alert.locator('svg').first().boundingBox();
  assert.ok(icon.width >= 16, 'the icon is seen');

  const panel = page.getByRole('region', { name: 'Resources of production' });
  const status = panel.getByRole('status', { name: /^Updates: / });
  await status.waitFor({ timeout: TIMEOUT });
  await live(page);
  const age = panel.getByTestId('data-age');
  await age.waitFor({ timeout: TIMEOUT });
  const text = await status.textContent();
  console.log(`live status: ${text}`);
  assert.match(await age.textContent(), /^last change \d+ [smhd] ago$/);
  assert.doesNotMatch(text, /\bold\b/);
  await portal.screenshot(page, 'first-visit-search-indexer');
});
