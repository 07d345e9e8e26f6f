// The simulator's admin API (e2e/app-config.e2e.yaml turns it on), for the
// browser tests that make something happen in a cluster.
import assert from 'node:assert/strict';

export const SIMULATOR = 'http://localhost:7108';

/** Crash-loops (or crashes once) a pod of the agent's cluster. */
export async function crashPod(agent, namespace, pod, { loop = true } = {}) {
  const crash = await fetch(
    `${SIMULATOR}/-/simulator/clusters/${agent}/crash`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ namespace, pod, loop }),
    },
  );
  assert.equal(crash.status, 200, await crash.text());
}
