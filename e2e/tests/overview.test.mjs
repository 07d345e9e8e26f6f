// The deployment overview against the portal's default simulator scenario:
// the rows it must show are worked out from examples/scenarios/default and
// examples/catalog (the same files the portal loads), then compared with the
// page, unfiltered and through a shared link filtered to production/us-region.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { openPortal } from '../lib/portal.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIMEOUT = 60_000;
const TIER_TITLES = {
  production: 'Production',
  staging: 'Staging',
  testing: 'Testing',
  development: 'Development',
  other: 'Other',
};

/**
 * Every environment the overview should list: each annotated catalog
 * component's project, its environments that are not stopped, narrowed by
 * the gitlab-env/environments annotation when the component sets one.
 */
function expectedRows() {
  const scenario = parse(
    readFileSync(
      join(root, 'examples/scenarios/default/scenario.yaml'),
      'utf8',
    ),
  );
  const components = parseAllDocuments(
    readFileSync(join(root, 'examples/catalog/components.yaml'), 'utf8'),
  )
    .map(doc => doc.toJS())
    .filter(entity => entity?.kind === 'Component');
  return components.flatMap(entity => {
    const annotations = entity.metadata.annotations ?? {};
    const slug = annotations['gitlab.com/project-slug'];
    const id = annotations['gitlab.com/project-id'];
    const project = scenario.projects.find(
      p => p.path === slug || String(p.id) === id,
    );
    if (!project) return [];
    const only = annotations['gitlab-env/environments']
      ?.split(',')
      .map(name => name.trim());
    return (project.environments ?? [])
      .filter(env => env.state !== 'stopped')
      .filter(env => !only || only.includes(env.name))
      .map(env => ({ entity: entity.metadata, project, ...env }));
  });
}

// React's development warnings are not failures of the page.
function isAppError(text) {
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}

let portal;
before(async () => {
  portal = await openPortal();
});
after(async () => {
  await portal?.close();
});

async function waitForLoaded(page) {
  await page
    .getByText(/^Showing \d+ of \d+ environments$/)
    .waitFor({ timeout: TIMEOUT });
  // The progress bar stays until every row's health has arrived.
  await page
    .getByRole('progressbar', { name: 'Loading environments' })
    .waitFor({ state: 'detached', timeout: TIMEOUT });
}

/** The numbers on the health chips at the top, by status. */
async function healthCounts(page) {
  const chips = page
    .getByRole('group', { name: 'Environments per health' })
    .getByRole('button');
  const labels = await chips.evaluateAll(nodes =>
    nodes.map(node => node.getAttribute('aria-label')),
  );
  return Object.fromEntries(
    labels.map(label => {
      const [count, status] = label.split(' ');
      return [status, Number(count)];
    }),
  );
}

test('lists every environment of the example catalog by tier, with counts', async () => {
  const expected = expectedRows();
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  await waitForLoaded(page);

  const rows = page.getByTestId('overview-row');
  assert.equal(await rows.count(), expected.length);
  assert.ok(
    await page
      .getByText(
        `Showing ${expected.length} of ${expected.length} environments`,
      )
      .isVisible(),
  );
  // No row is left waiting once the stream is done.
  assert.equal(await page.getByText('Reading resources…').count(), 0);

  // One section per tier, in GitLab's order, each with that tier's rows.
  const tiers = Object.keys(TIER_TITLES).filter(tier =>
    expected.some(env => env.tier === tier),
  );
  for (const tier of tiers) {
    const section = page.getByRole('region', {
      name: `${TIER_TITLES[tier]} environments`,
    });
    assert.equal(
      await section.getByTestId('overview-row').count(),
      expected.filter(env => env.tier === tier).length,
      `rows under ${TIER_TITLES[tier]}`,
    );
  }
  const sectionOrder = await page
    .locator('section[aria-label$=" environments"]')
    .evaluateAll(nodes => nodes.map(node => node.getAttribute('aria-label')));
  assert.deepEqual(
    sectionOrder,
    tiers.map(tier => `${TIER_TITLES[tier]} environments`),
  );

  // Every row is counted once at the top, and the scenario shows problems.
  const counts = await healthCounts(page);
  const sum = Object.values(counts).reduce((a, b) => a + b, 0);
  assert.equal(sum, expected.length);
  for (const status of ['Degraded', 'Unknown', 'Healthy']) {
    assert.ok(counts[status] > 0, `expected some ${status} environments`);
  }
  // A row without an agent says so under its health.
  const noAgent = expected.find(env => !env.agent);
  assert.ok(noAgent, 'the scenario has an environment without an agent');
  assert.ok(
    (await page.locator('[data-error-code="NO_AGENT"]').count()) >= 1,
    'the environment without an agent names the problem',
  );
  // Folders are named as the entity tab names them: `production`, no slash.
  const folders = await page
    .locator('tbody[aria-label^="Folder "]')
    .evaluateAll(nodes => nodes.map(node => node.getAttribute('aria-label')));
  assert.ok(folders.includes('Folder production'), `folders: ${folders}`);
  assert.equal(await page.getByText(/^production\/$/).count(), 0);
  assert.deepEqual(page.errors.filter(isAppError), []);
  await portal.screenshot(page, 'overview');
});

test('a shared link filtered to production/us-region shows that environment only', async () => {
  const [usRegion] = expectedRows().filter(
    env => env.name === 'production/us-region',
  );
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env?folder=production%2Fus-region');
  await waitForLoaded(page);

  const rows = page.getByTestId('overview-row');
  assert.equal(await rows.count(), 1);
  const cells = await rows.first().getByRole('cell').allTextContents();
  assert.match(cells[0], /Healthy/);
  assert.equal(cells[1], usRegion.entity.title ?? usRegion.project.name);
  // Columns: health, entity, environment · project, owner, system,
  // agent · namespace, last deployment. Links to GitLab carry a
  // screen-reader note after their text.
  assert.match(cells[2], /^production\/us-region\b/);
  assert.ok(cells[2].includes(usRegion.project.path), cells[2]);
  assert.match(cells[5], new RegExp(`^${usRegion.agent}\\b`));
  assert.ok(cells[5].endsWith(usRegion.namespace), cells[5]);
  // The last successful deployment, not the failed one after it.
  const succeeded = usRegion.deployments.filter(d => d.status !== 'FAILED');
  assert.match(cells[6], new RegExp(succeeded.at(-1).sha.slice(0, 8)));

  const counts = await healthCounts(page);
  assert.equal(counts.Healthy, 1);
  assert.equal(
    Object.values(counts).reduce((a, b) => a + b, 0),
    1,
    'the counts follow the folder filter',
  );
  assert.deepEqual(page.errors.filter(isAppError), []);
  await portal.screenshot(page, 'overview-us-region');
});

test('the diagnostics tab shows what the backend sees of the GitLab instance and names each cause', async () => {
  const scenario = parse(
    readFileSync(
      join(root, 'examples/scenarios/default/scenario.yaml'),
      'utf8',
    ),
  );
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  // The overview's reads fill the diagnostics with the agents they met.
  await waitForLoaded(page);
  // The hidden agent and the never-connected one each name their cause.
  assert.ok(
    (await page.locator('[data-error-code="AGENT_NOT_VISIBLE"]').count()) >= 1,
  );
  assert.ok(
    (await page.locator('[data-error-code="AGENT_NEVER_CONNECTED"]').count()) >=
      1,
  );
  // The demo's permission policy allows everything, so the admin tab is there.
  await page.getByRole('tab', { name: 'GitLab diagnostics' }).click();
  const facts = page.getByRole('table', {
    name: `${scenario.instance.host} facts`,
  });
  await facts.waitFor({ timeout: TIMEOUT });
  const text = await facts.textContent();
  assert.ok(text.includes(scenario.instance.version), text);
  assert.ok(text.includes("from GitLab's metadata"), text);
  assert.ok(text.includes('read_api') && text.includes('k8s_proxy'), text);
  const agents = page.getByRole('table', {
    name: `${scenario.instance.host} agents`,
  });
  assert.ok((await agents.textContent()).includes('lab'));
  assert.ok(
    await page.getByText('The agent has never connected').first().isVisible(),
  );
  assert.deepEqual(page.errors.filter(isAppError), []);
  await portal.screenshot(page, 'overview-diagnostics');
});
