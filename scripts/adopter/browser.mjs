// What an adopter checks after installing: an entity's Environments tab shows
// the environment cards with their health, and the opened environment's
// resource graph. Debian's Chromium, driven as in the browser tests.
import assert from 'node:assert/strict';
import { openPortal } from '../../e2e/lib/portal.mjs';

const TIMEOUT = 60_000;

export async function assertEnvironmentsTab({ portalUrl, label }) {
  const portal = await openPortal({ baseUrl: portalUrl });
  try {
    const page = await portal.page();
    const failedRequests = [];
    page.on('response', response => {
      if (response.status() >= 400) {
        failedRequests.push(`${response.status()} ${response.url()}`);
      }
    });
    const uncaught = [];
    page.on('pageerror', error => uncaught.push(String(error)));
    await portal.goto(
      page,
      '/catalog/default/component/checkout-api/gitlab-env?env=staging',
    );
    // Backstage UI's entity header shows tabs as links, older themes as tabs.
    await page
      .getByRole('link', { name: 'Environments', exact: true })
      .or(page.getByRole('tab', { name: 'Environments', exact: true }))
      .first()
      .waitFor({ timeout: TIMEOUT });

    // the cards, each ending with a health badge
    const cards = page.locator('section[data-environment]');
    await cards.first().waitFor({ timeout: TIMEOUT });
    const badges = page.getByRole('status', { name: /^Health: / });
    await badges.first().waitFor({ timeout: TIMEOUT });
    const environments = await cards.evaluateAll(nodes =>
      nodes.map(node => node.getAttribute('data-environment')),
    );
    const health = await badges.evaluateAll(nodes =>
      nodes.map(node => node.getAttribute('aria-label')),
    );
    console.log(`${label}: cards ${environments.join(', ')}`);
    console.log(`${label}: ${health.join('; ')}`);
    assert.ok(environments.includes('staging'), 'a staging card shows');
    assert.ok(health.length >= 2, 'at least two environments show health');

    // the opened environment's graph; each node is labelled "<Kind> <name>, <health>"
    const panel = page.getByRole('region', { name: 'Resources of staging' });
    const nodes = panel
      .getByTestId('resource-graph')
      .locator('.react-flow__node');
    await nodes.first().waitFor({ timeout: TIMEOUT });
    const names = await nodes.evaluateAll(list =>
      list.map(node => node.getAttribute('aria-label') ?? ''),
    );
    console.log(`${label}: graph of staging has ${names.length} nodes`);
    assert.ok(
      names.some(name => name.startsWith('Deployment ')),
      'a Deployment node',
    );
    assert.ok(
      names.some(name => name.startsWith('ReplicaSet ')),
      'a ReplicaSet node',
    );
    assert.ok(
      (await panel.locator('.react-flow__edge').count()) > 0,
      'the graph has edges',
    );
    await portal.screenshot(page, `adopter-${label}`);
    // The template's other plugins are not under test: what must be clean
    // is every call to this plugin's backend, and the page must not throw.
    console.log(
      `${label}: failed requests: ${failedRequests.join(', ') || 'none'}`,
    );
    assert.deepEqual(
      failedRequests.filter(request => request.includes('/api/gitlab-env/')),
      [],
      'no failed call to the gitlab-env backend',
    );
    assert.deepEqual(uncaught, [], 'no uncaught error on the page');
  } finally {
    await portal.close();
  }
}
