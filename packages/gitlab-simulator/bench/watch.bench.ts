/* eslint-disable no-console */
/**
 * What the simulator adds to a live benchmark: the delay from a churn write to
 * its watch event reaching a client, with one watcher (the baseline) and with
 * many, at the rate the live-updates issue names (50 changes per second).
 * Printed, never asserted. Run: npm run bench:watch -w packages/gitlab-simulator
 */
import {
  CHANGED_AT,
  DEMO_TOKEN,
  generateScenario,
  startGitlabSimulator,
} from '../src';
import { percentile } from './percentile';

const CHANGES_PER_SECOND = 50;
const SECONDS = 5;
// About one watch per kind per agent scope, what a backend sharing its watches opens.
const WATCHERS = 20;

/** Opens `watchers` watches on one namespace's pods and collects write-to-receipt delays. */
async function run(
  kasProxyUrl: string,
  namespace: string,
  watchers: number,
  stopChurn: () => () => void,
) {
  const delays: number[] = [];
  const controllers = Array.from(
    { length: watchers },
    () => new AbortController(),
  );
  const list = await (
    await fetch(`${kasProxyUrl}/api/v1/namespaces/${namespace}/pods`, {
      headers: { Authorization: `Bearer pat:1:${DEMO_TOKEN}` },
    })
  ).json();
  const reading = controllers.map(async controller => {
    try {
      const response = await fetch(
        `${kasProxyUrl}/api/v1/namespaces/${namespace}/pods?watch=1&resourceVersion=${list.metadata.resourceVersion}`,
        {
          headers: { Authorization: `Bearer pat:1:${DEMO_TOKEN}` },
          signal: controller.signal,
        },
      );
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body as any) {
        buffer += decoder.decode(chunk, { stream: true });
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const event = JSON.parse(buffer.slice(0, newline));
          buffer = buffer.slice(newline + 1);
          const at = event.object?.metadata?.annotations?.[CHANGED_AT];
          if (at) delays.push(Date.now() - Date.parse(at));
          newline = buffer.indexOf('\n');
        }
      }
    } catch {
      // aborted at the end of the run
    }
  });
  const stop = stopChurn();
  await new Promise(resolve => setTimeout(resolve, SECONDS * 1000));
  stop();
  controllers.forEach(c => c.abort());
  await Promise.all(reading);
  delays.sort((a, b) => a - b);
  return { delays, p50: percentile(delays, 50), p99: percentile(delays, 99) };
}

async function main() {
  const scenario = generateScenario({
    projects: 20,
    environmentsPerProject: 4,
    objectsPerEnvironment: 20,
  });
  const sim = await startGitlabSimulator({ scenario, tickMs: 0 });
  const cluster = sim.cluster(1);
  const namespace = scenario.projects[0].environments[0].kubernetesNamespace!;
  const churn = () =>
    cluster.startChurn(CHANGES_PER_SECOND, { namespaces: [namespace] });
  const baseline = await run(sim.kasProxyUrl, namespace, 1, churn);
  const many = await run(sim.kasProxyUrl, namespace, WATCHERS, churn);
  console.log(
    `${CHANGES_PER_SECOND} changes/s for ${SECONDS} s, write → watch event received (ms, Date.now resolution):`,
  );
  console.log(
    `  1 watcher    p50 ${baseline.p50}  p99 ${baseline.p99}  (${baseline.delays.length} events)`,
  );
  console.log(
    `  ${WATCHERS} watchers p50 ${many.p50}  p99 ${many.p99}  (${many.delays.length} events)`,
  );
  console.log(
    `  p99 ratio ${WATCHERS}/1: ${(
      many.p99 / Math.max(1, baseline.p99)
    ).toFixed(1)}`,
  );
  await sim.close();
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
