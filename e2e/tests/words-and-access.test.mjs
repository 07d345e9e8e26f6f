// Words as a person reads them (issue 29): commands that wrap only between
// their arguments, tables that keep their words whole and fit their cards,
// messages with code and no repeated advice, the overview's search as one
// types, and the access page's picker, YAML errors and agent states.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openPortal } from '../lib/portal.mjs';
import { brokenWords } from '../lib/look.mjs';
import {
  namespaceDeleteDialog,
  overviewLoaded,
  resourceGraph,
} from '../lib/tab.mjs';

const TIMEOUT = 60_000;

let portal;
beforeEach(async () => {
  portal = await openPortal();
});
afterEach(async () => {
  await portal?.close();
});

/** The error alerts in `scope`: their text, and checks on what they say. */
async function alertsIn(scope) {
  return scope.locator('[role="alert"][data-error-code]').evaluateAll(alerts =>
    alerts.map(alert => {
      const paragraphs = [...alert.querySelectorAll('p')].map(p =>
        p.textContent.trim(),
      );
      const advice = paragraphs.find(p => p.startsWith('What to do: '));
      const sentences = paragraphs
        .flatMap(p => p.replace(/^What to do: /, '').split(/(?<=\.)\s+/))
        .map(s => s.trim().toLowerCase())
        .filter(s => s.length > 20);
      return {
        code: alert.getAttribute('data-error-code'),
        text: alert.textContent,
        codes: [...alert.querySelectorAll('code')].map(c => c.textContent),
        repeated: sentences.filter((s, i) => sentences.indexOf(s) !== i),
        adviceInMessage: Boolean(
          advice &&
            paragraphs.some(
              p =>
                p !== advice &&
                p.toLowerCase().includes(advice.slice(12, 60).toLowerCase()),
            ),
        ),
      };
    }),
  );
}

test('a dialog’s kubectl command wraps only between its arguments, and every command has its copy button', async () => {
  const page = await portal.page();
  // Narrow enough that the scale command takes two lines.
  await page.setViewportSize({ width: 720, height: 800 });
  await portal.goto(
    page,
    '/catalog/default/component/storefront/gitlab-env?env=staging',
  );
  const graph = await resourceGraph(page, 'staging');
  await graph
    .locator('.react-flow__node[aria-label^="Deployment "]')
    .first()
    .click({ timeout: TIMEOUT });
  const drawer = page.getByRole('dialog', { name: /^Deployment / });
  await drawer
    .getByRole('button', { name: 'Scale', exact: true })
    .click({ timeout: TIMEOUT });
  const dialog = page.getByRole('dialog', { name: /^Scale Deployment / });
  const command = dialog.getByLabel('kubectl command', { exact: true });
  await command.waitFor({ timeout: TIMEOUT });
  const lines = await command.evaluate(
    code =>
      new Set(
        [...code.querySelectorAll('span')].map(s =>
          Math.round(s.getBoundingClientRect().top),
        ),
      ).size,
  );
  console.log(
    `scale command: "${await command.textContent()}" on ${lines} lines`,
  );
  assert.ok(lines > 1, 'the command wraps in a narrow dialog');
  assert.deepEqual(await brokenWords(command, { whole: true }), []);
  await dialog
    .getByRole('button', { name: 'Copy kubectl command' })
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(page, 'words-scale-dialog-narrow');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The namespace-delete dialog shows its command the same way.
  const { page: access, dialog: deleteDialog } = await namespaceDeleteDialog(
    portal,
    'storefront',
    'storefront-review-old-checkout',
  );
  assert.equal(
    await deleteDialog
      .getByLabel('kubectl command', { exact: true })
      .textContent(),
    'kubectl delete namespace storefront-review-old-checkout',
  );
  await deleteDialog
    .getByRole('button', { name: 'Copy kubectl command' })
    .waitFor({ timeout: TIMEOUT });
  await portal.screenshot(access, 'words-delete-namespace-dialog');
  await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
});

test('the clean-up list keeps its words whole, links entities by name, shows code and says each piece of advice once', async () => {
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  await page
    .getByRole('button', { name: 'Find namespaces left behind' })
    .click({ timeout: TIMEOUT });
  const table = page.getByRole('table', { name: 'Stale namespaces' });
  await table.waitFor({ timeout: TIMEOUT });
  await page.waitForTimeout(500);
  assert.deepEqual(await brokenWords(table), []);
  const header = table.getByRole('columnheader', { name: 'Age' });
  assert.ok((await header.boundingBox()).height < 40, 'Age on one line');
  const entities = await table
    .locator('tbody tr')
    .evaluateAll(rows => rows.map(row => row.cells[1].textContent));
  console.log(`stale namespaces' entities: ${entities.join(', ')}`);
  for (const entity of entities) assert.doesNotMatch(entity, /^component:/);
  assert.ok((await table.locator('tbody a[href^="/catalog/"]').count()) > 0);

  const section = page.locator('main');
  const alerts = await alertsIn(section);
  console.log(
    `clean-up alerts: ${alerts
      .map(a => `${a.code} [${a.codes.join(' | ')}]`)
      .join('; ')}`,
  );
  assert.ok(alerts.length > 0);
  for (const alert of alerts) {
    assert.doesNotMatch(alert.text, /`/, 'backticks render as code');
    assert.deepEqual(alert.repeated, [], `${alert.code}: no sentence twice`);
    assert.equal(alert.adviceInMessage, false, `${alert.code}: advice once`);
  }
  const unshared = alerts.find(a => a.code === 'AGENT_NOT_SHARED');
  assert.ok(unshared, 'the restricted agent does not share its cluster');
  assert.ok(unshared.codes.includes('user_access'));
  // The agent that never connected is said to be so here too.
  assert.ok(
    alerts.some(
      a =>
        a.code === 'AGENT_NEVER_CONNECTED' &&
        /lab has never connected/.test(a.text),
    ),
  );
  await portal.screenshot(page, 'words-cleanup');
});

test('the overview’s tables fit their cards with every column in view, and keep their words whole', async () => {
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  await overviewLoaded(page);
  const tables = page.getByRole('table', { name: / environments$/ });
  const count = await tables.count();
  assert.ok(count >= 3);
  for (let i = 0; i < count; i++) {
    const table = tables.nth(i);
    const name = await table.getAttribute('aria-label');
    const fits = await table.evaluate(t => {
      const card = t.parentElement.getBoundingClientRect();
      const last = [...t.querySelectorAll('th')].find(
        th => th.textContent === 'Last deployment',
      );
      const lastBox = last.getBoundingClientRect();
      return {
        table: t.getBoundingClientRect().right <= card.right + 1,
        lastDeployment:
          lastBox.left >= card.left && lastBox.right <= card.right,
        scrolls: t.parentElement.scrollWidth > t.parentElement.clientWidth,
      };
    });
    assert.deepEqual(
      fits,
      { table: true, lastDeployment: true, scrolls: false },
      name,
    );
    assert.deepEqual(await brokenWords(table), [], name);
  }
  await portal.screenshot(page, 'words-overview');
});

test('the overview’s search filters as one types, agrees with the rows and the address, and survives a reload', async () => {
  const page = await portal.page();
  await portal.goto(page, '/gitlab-env');
  await page
    .getByText(/^Showing \d+ of \d+ environments$/)
    .waitFor({ timeout: TIMEOUT });
  const search = page.getByRole('textbox', { name: 'Search' });
  await search.pressSequentially('checkout', { delay: 60 });
  await page.waitForURL(/[?&]q=checkout/, { timeout: TIMEOUT });
  const rows = page.getByTestId('overview-row');
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-testid="overview-row"]')].every(r =>
        /checkout/i.test(r.textContent),
      ),
    null,
    { timeout: TIMEOUT },
  );
  assert.ok((await rows.count()) > 0);

  // Typing on and picking a tier before the pause: both apply together.
  await search.pressSequentially('-api', { delay: 20 });
  await page.getByRole('combobox', { name: 'Tier' }).click();
  await page.getByRole('option', { name: 'staging' }).click();
  await page.waitForURL(/tier=staging/, { timeout: TIMEOUT });
  const query = new URL(page.url()).searchParams;
  assert.equal(query.get('q'), 'checkout-api');
  assert.equal(await search.inputValue(), 'checkout-api');
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-testid="overview-row"]')].every(r =>
        /checkout-api|Checkout API/i.test(r.textContent),
      ),
    null,
    { timeout: TIMEOUT },
  );

  await page.reload();
  await page
    .getByRole('textbox', { name: 'Search' })
    .waitFor({ timeout: TIMEOUT });
  assert.equal(
    await page.getByRole('textbox', { name: 'Search' }).inputValue(),
    'checkout-api',
  );
});

test('access: the picker names agents as the matrix does, a YAML error is whole, and an agent that never connected reads so', async () => {
  const page = await portal.page();
  await portal.goto(
    page,
    '/catalog/default/component/storefront/gitlab-env?view=access',
  );
  const matrix = page.getByRole('table', {
    name: 'Access by environment and agent',
  });
  await matrix.waitFor({ timeout: TIMEOUT });
  // Under Backstage's theme table cells may break words anywhere: not here.
  assert.deepEqual(await brokenWords(matrix), []);
  const agents = (
    await matrix
      .locator('thead th')
      .evaluateAll(ths => ths.map(th => th.textContent))
  )
    .filter(text => text.startsWith('Agent '))
    .map(text => text.slice('Agent '.length));
  await page
    .getByRole('combobox', { name: 'Variables of the deployment job of' })
    .click();
  const options = await page.getByRole('option').allTextContents();
  console.log(
    `matrix agents: ${agents.join(', ')}; picker: ${options.join(' / ')}`,
  );
  for (const option of options) {
    const agent = option.match(/\(agent (.+)\)$/)?.[1];
    assert.ok(agents.includes(agent), `${option} names a matrix agent`);
  }
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Whole entry' }).click();
  const entry = page.getByRole('textbox', { name: 'ci_access entry (YAML)' });
  await entry.fill('id: acme\nrules:\n  - if: $X\n namespace: x\n');
  const error = page.getByRole('alert').filter({ hasText: 'Not valid YAML' });
  await error.waitFor({ timeout: TIMEOUT });
  const message = (await error.textContent()).replace(/\^.*$/s, '');
  console.log(`YAML error: ${await error.textContent()}`);
  assert.match(message, /^Not valid YAML at line \d+, column \d+: .+\./);
  assert.doesNotMatch(message, /column \d+:\s*$/);
  await portal.screenshot(page, 'access-yaml-error');

  const other = await portal.page();
  await portal.goto(
    other,
    '/catalog/default/component/search-indexer/gitlab-env?view=access',
  );
  const never = other
    .locator('[data-error-code="AGENT_NEVER_CONNECTED"]')
    .filter({ hasText: 'lab' });
  await never.first().waitFor({ timeout: TIMEOUT });
  assert.match(
    await never.first().textContent(),
    /The agent has never connected/,
  );
  assert.equal(
    await other.getByText(/lab\) does not share its cluster/).count(),
    0,
  );
  await portal.screenshot(other, 'access-search-indexer');
});
