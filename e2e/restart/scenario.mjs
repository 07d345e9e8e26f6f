// What the two halves of the restart test share: the environment, the
// crash, and finding the recorded transition on the timeline.
import assert from 'node:assert/strict';
import { SIMULATOR, crashPod } from '../lib/simulator.mjs';

const KAS = `${SIMULATOR}/-/kubernetes-agent/k8s-proxy`;
const AGENT = { id: 3, name: 'nonprod' };
const NAMESPACE = 'notifications-dev';
const DEPLOYMENT = 'notifications-api';
const TOKEN = 'glpat-demo-backstage-bot';

export const ENTITY = '/catalog/default/component/notifications/gitlab-env';

/** Crash-loops one pod of notifications-api, through the simulator's admin API. */
export async function crashOnePod() {
  const response = await fetch(`${KAS}/api/v1/namespaces/${NAMESPACE}/pods`, {
    headers: { authorization: `Bearer pat:${AGENT.id}:${TOKEN}` },
  });
  assert.ok(response.ok, `pods: HTTP ${response.status}`);
  const victim = (await response.json()).items
    .map(pod => pod.metadata.name)
    .find(name => name.startsWith(`${DEPLOYMENT}-`));
  assert.ok(victim, 'notifications-api has a pod');
  await crashPod(AGENT.name, NAMESPACE, victim);
}

/** The environment's Timeline view, once it has loaded. */
export async function openTimeline(page, panel) {
  await panel.getByRole('tab', { name: 'Timeline' }).click({ timeout: 60_000 });
  const timeline = panel.getByRole('region', { name: 'Timeline' });
  await timeline.getByText(/^Kept for \d+ days\./).waitFor({ timeout: 60_000 });
  return timeline;
}

/** The timeline's entry of a transition to Degraded, refreshing until it is recorded. */
export async function degradedEntry(timeline, timeoutMs) {
  const entry = timeline
    .locator('li[data-kind="health"]')
    .filter({ hasText: /→ Degraded/ })
    .first();
  const deadline = Date.now() + timeoutMs;
  while (!(await entry.isVisible())) {
    assert.ok(Date.now() < deadline, 'no transition to Degraded was recorded');
    await new Promise(resolve => setTimeout(resolve, 1000));
    await timeline.getByRole('button', { name: 'Refresh' }).click();
  }
  return entry;
}
