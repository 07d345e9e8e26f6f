// No page waits on one agent (issue 25), in the demo portal: search-indexer
// has an environment on `edge`, whose agentk went away two hours ago, and
// one on `lab`, whose agentk never connected. The tab's cards come from
// GitLab alone and each card's cluster data arrives on its own; the
// overview's rows settle agent by agent. The times are printed (measured in
// the page, from navigation start, with storefront's tab as the baseline of
// the same run); the assertions are about what a person sees, never times.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { isAppError } from '../lib/tab.mjs';

const TIMEOUT = 60_000;
/** The backend's read cache (gitlabEnv.cacheTtlSeconds, 30 s by default), and a second. */
const CACHE_EXPIRED_MS = 31_000;

let portal;
before(async () => {
  portal = await openPortal();
});
after(async () => {
  await portal?.close();
});

/**
 * Records in the page, from navigation start (performance.now()), when each
 * named check first holds; checks run on every change of the page.
 */
async function recordWhen(page, checks) {
  await page.addInitScript(sources => {
    const seen = {};
    window.__seen = seen;
    const tests = Object.entries(sources).map(([name, source]) => [
      name,
      // eslint-disable-next-line no-new-func
      new Function(`return (${source})();`),
    ]);
    const check = () => {
      for (const [name, holds] of tests) {
        if (!(name in seen) && holds()) seen[name] = performance.now();
      }
    };
    new MutationObserver(check).observe(document, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
  }, Object.fromEntries(Object.entries(checks).map(([k, f]) => [k, String(f)])));
}

const seen = page => page.evaluate(() => ({ ...window.__seen }));
const ms = value => (value === undefined ? 'never' : `${Math.round(value)} ms`);

const TAB_CHECKS = {
  // The entity page's own header: what the app shows before the tab.
  header: () => !!document.querySelector('h1'),
  firstCard: () => !!document.querySelector('section[data-environment]'),
  firstHealth: () =>
    !!document.querySelector(
      'section[data-environment] [role="status"][aria-label^="Health: "], section[data-environment] [data-error-code]',
    ),
  edgeCause: () =>
    !!document.querySelector(
      'section[data-environment="development"] [data-error-code]',
    ),
  allSettled: () =>
    !!document.querySelector('section[data-environment]') &&
    !document.querySelector('[data-testid="environment-connecting"]'),
};

/** A fresh page, signed in, that records when the tab's cards show what. */
async function tabPage() {
  const page = await portal.page();
  await portal.goto(page, '/');
  await page.waitForURL(/\/catalog/, { timeout: TIMEOUT });
  await recordWhen(page, TAB_CHECKS);
  return page;
}

async function untilSettled(page) {
  await page.locator('section[data-environment]').first().waitFor({
    timeout: TIMEOUT,
  });
  await page.waitForFunction(
    () => !document.querySelector('[data-testid="environment-connecting"]'),
    null,
    { timeout: TIMEOUT },
  );
}

/** Loads a component's tab in the browser afresh; answers the times seen since navigation start. */
async function loadTab(page, component) {
  await page.goto(
    new URL(
      `/catalog/default/component/${component}/gitlab-env`,
      process.env.PORTAL_URL ?? 'http://localhost:7107',
    ).toString(),
  );
  await untilSettled(page);
  return seen(page);
}

/** A tab of the entity page (the app's, not the plugin's own views). */
const entityTab = (page, name) =>
  page
    .getByRole('link', { name, exact: true })
    .or(page.getByRole('tab', { name, exact: true }))
    .first();

/**
 * Opens a component's tab from its overview page, as a person going back
 * to it does (the app already loaded); answers the times seen since the
 * click.
 */
async function revisitTab(page, component) {
  await entityTab(page, 'Overview').click();
  await page.waitForFunction(
    () => !document.querySelector('section[data-environment]'),
    null,
    { timeout: TIMEOUT },
  );
  const started = await page.evaluate(() => {
    for (const key of Object.keys(window.__seen)) delete window.__seen[key];
    return performance.now();
  });
  await entityTab(page, 'Environments').click();
  await untilSettled(page);
  const times = await seen(page);
  assert.match(page.url(), new RegExp(`/component/${component}/gitlab-env`));
  return Object.fromEntries(
    Object.entries(times).map(([name, at]) => [name, at - started]),
  );
}

/** The demo's agents, as the overview's agent column starts. */
const OVERVIEW_AGENTS = ['prod-us', 'prod-eu', 'nonprod', 'edge', 'lab'];

const ratio = (value, baseline) => `${(value / baseline).toFixed(2)}×`;

function report(label, visit, baseline) {
  console.log(
    `${label}: first card ${ms(visit.firstCard)}${
      baseline
        ? ` (${ratio(visit.firstCard, baseline.firstCard)} storefront's)`
        : ''
    }${
      visit.header !== undefined
        ? `, ${ms(visit.firstCard - visit.header)} after the page's header`
        : ''
    }, first health or cause ${ms(visit.firstHealth)}${
      visit.edgeCause !== undefined
        ? `, edge's cause ${ms(visit.edgeCause)}`
        : ''
    }, every card settled ${ms(visit.allSettled)}${
      baseline
        ? ` (${ratio(visit.allSettled, baseline.allSettled)} storefront's)`
        : ''
    }`,
  );
}

test("search-indexer's tab: the cards at once, each agent's data on its own, edge's card saying it is not connected", async () => {
  const baselinePage = await tabPage();
  const baseline = {
    load: await loadTab(baselinePage, 'storefront'),
    revisit: await revisitTab(baselinePage, 'storefront'),
  };
  const page = await tabPage();
  const visits = [['first load', await loadTab(page, 'search-indexer')]];

  const card = slug => page.locator(`section[data-environment="${slug}"]`);
  // edge: GitLab says its agentk went away, so its card says so (and when).
  const edge = card('development').locator('[data-error-code]');
  assert.equal(
    await edge.getAttribute('data-error-code'),
    'AGENT_NOT_CONNECTED',
  );
  assert.match(await edge.textContent(), /not connected/i);
  assert.match(
    await edge.getAttribute('title'),
    /^The agent edge is not connected to GitLab: its agentk last connected 2 hours ago/,
  );
  // lab: never connected.
  assert.equal(
    await card('lab')
      .locator('[data-error-code]')
      .getAttribute('data-error-code'),
    'AGENT_NEVER_CONNECTED',
  );
  // The connected agents' cards have their health.
  for (const slug of ['production', 'staging']) {
    assert.equal(
      await card(slug)
        .locator('[role="status"][aria-label^="Health: "]')
        .count(),
      1,
      `${slug} has its health badge`,
    );
  }
  // The cards come before any cluster data: the list waits for no agent.
  const [, first] = visits[0];
  assert.ok(first.firstCard <= first.firstHealth, JSON.stringify(first));
  assert.deepEqual(page.errors.filter(isAppError), []);
  await portal.screenshot(page, 'availability-search-indexer');

  visits.push(['back to the tab', await revisitTab(page, 'search-indexer')]);
  // Again once the backend's read cache has expired.
  await new Promise(resolve => setTimeout(resolve, CACHE_EXPIRED_MS));
  visits.push([
    'back to the tab, read cache expired',
    await revisitTab(page, 'search-indexer'),
  ]);
  assert.equal(
    await card('development')
      .locator('[data-error-code]')
      .getAttribute('data-error-code'),
    'AGENT_NOT_CONNECTED',
  );

  report('storefront, first load (baseline)', baseline.load);
  report('storefront, back to the tab (baseline)', baseline.revisit);
  for (const [label, visit] of visits)
    report(
      `search-indexer, ${label}`,
      visit,
      label === 'first load' ? baseline.load : baseline.revisit,
    );
});

test("the overview: every row settles agent by agent, edge's row saying not connected", async () => {
  const page = await portal.page();
  await portal.goto(page, '/');
  await page.waitForURL(/\/catalog/, { timeout: TIMEOUT });
  await recordWhen(page, {
    firstRow: () => !!document.querySelector('[data-testid="overview-row"]'),
    edgeNotConnected: () =>
      [...document.querySelectorAll('[data-testid="overview-row"]')].some(
        row =>
          row.textContent.includes('edge') &&
          row.querySelector('[data-error-code="AGENT_NOT_CONNECTED"]'),
      ),
    everyBadge: () => {
      const rows = document.querySelectorAll('[data-testid="overview-row"]');
      return (
        rows.length > 0 &&
        !document.querySelector(
          '[role="progressbar"][aria-label="Loading environments"]',
        ) &&
        [...rows].every(row => !row.textContent.includes('Reading resources…'))
      );
    },
  });
  // When each agent's rows all have their badge or cause, from navigation
  // start: which agent the page waits for last.
  await page.addInitScript(agents => {
    const settled = {};
    window.__agentSettled = settled;
    const check = () => {
      const rows = [
        ...document.querySelectorAll('[data-testid="overview-row"]'),
      ];
      for (const agent of agents) {
        if (agent in settled) continue;
        const own = rows.filter(row =>
          [...row.querySelectorAll('td')].some(cell =>
            cell.textContent.startsWith(agent),
          ),
        );
        if (
          own.length > 0 &&
          own.every(row => !row.textContent.includes('Reading resources…'))
        )
          settled[agent] = performance.now();
      }
    };
    new MutationObserver(check).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  }, OVERVIEW_AGENTS);
  await page.goto(
    new URL(
      '/gitlab-env',
      process.env.PORTAL_URL ?? 'http://localhost:7107',
    ).toString(),
  );
  await page.waitForFunction(
    () => window.__seen?.everyBadge !== undefined,
    null,
    {
      timeout: TIMEOUT,
    },
  );
  const times = await seen(page);

  const row = (agent, name) =>
    page
      .getByTestId('overview-row')
      .filter({
        has: page
          .getByRole('cell')
          .filter({ hasText: new RegExp(`^${agent}`) }),
      })
      .filter({ hasText: name });
  const edgeRow = row('edge', 'development');
  assert.equal(await edgeRow.count(), 1);
  assert.equal(
    await edgeRow.locator('[data-error-code="AGENT_NOT_CONNECTED"]').count(),
    1,
  );
  assert.match(await edgeRow.textContent(), /The agent is not connected/);
  assert.equal(
    await row('lab', 'lab')
      .locator('[data-error-code="AGENT_NEVER_CONNECTED"]')
      .count(),
    1,
  );
  // Every row of a connected agent has its badge.
  const unsettled = await page.getByText('Reading resources…').count();
  assert.equal(unsettled, 0);
  assert.deepEqual(page.errors.filter(isAppError), []);
  await portal.screenshot(page, 'availability-overview');
  console.log(
    `overview, first load: first row ${ms(
      times.firstRow,
    )}, edge's row "not connected" ${ms(times.edgeNotConnected)} (${ms(
      times.edgeNotConnected - times.firstRow,
    )} after the first row), every row's badge ${ms(times.everyBadge)} (${ms(
      times.everyBadge - times.firstRow,
    )} after the first row)`,
  );
  const byAgent = await page.evaluate(() => ({ ...window.__agentSettled }));
  console.log(
    `overview, first load, each agent's rows settled: ${OVERVIEW_AGENTS.map(
      agent => `${agent} ${ms(byAgent[agent])}`,
    ).join(', ')}`,
  );
});
