/* eslint-disable no-console */
// Pod log follow through the backend, against the same stream read straight
// from KAS (the baseline, measured in the same run), with 100 ms of latency
// on every upstream request and the simulator writing about 1,000 lines a
// second. Printed: time to the first line (the drawer opened on a loaded
// page, so the environment's read is cached; and fully cold), and lines per
// second received while following, each as a ratio to the baseline.
// Timings are printed, never asserted.
// Run: npm run bench:logs -w plugins/gitlab-env-backend
import { DEMO_TOKEN, startGitlabSimulator } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import {
  storefrontComponent,
  startBackendOnSimulator,
} from '../src/__testUtils__/backendOnSimulator';

const LATENCY_MS = 100;
const FOLLOW_MS = 5000;
const RUNS = 3;

async function firstLineMs(url: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const stop = new AbortController();
  const response = await fetch(url, { headers, signal: stop.signal });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body!.getReader();
  await reader.read();
  const ms = performance.now() - started;
  stop.abort();
  return ms;
}

async function linesPerSecond(
  url: string,
  headers: Record<string, string> = {},
) {
  const stop = new AbortController();
  const response = await fetch(url, { headers, signal: stop.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let lines = 0;
  const started = performance.now();
  setTimeout(() => stop.abort(), FOLLOW_MS);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      lines += (decoder.decode(value, { stream: true }).match(/\n/g) ?? [])
        .length;
    }
  } catch {
    // aborted: the follow time is over
  }
  return lines / ((performance.now() - started) / 1000);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const simulator = await startGitlabSimulator({
    port: 0,
    tickMs: 0,
    logFollowIntervalMs: 1,
    faults: { latencyMs: LATENCY_MS },
  });
  const pod = (simulator.cluster('prod-us').store.all() as any[]).find(
    o => o.kind === 'Pod' && o.metadata.namespace === 'storefront',
  ).metadata.name;
  const direct = `${simulator.kasProxyUrl}/api/v1/namespaces/storefront/pods/${pod}/log?container=web&tailLines=10&follow=true`;
  const kasHeaders = { authorization: `Bearer pat:1:${DEMO_TOKEN}` };
  // Logs are read only for an entity whose claim on its project is verified.
  const entity = storefrontComponent();

  const cold: number[] = [];
  const warm: number[] = [];
  const baseline: number[] = [];
  let slug = '';
  for (let run = 0; run < RUNS; run++) {
    const backend = await startBackendOnSimulator(simulator, {
      entities: [entity],
    });
    const base = `http://127.0.0.1:${
      (backend.server.address() as AddressInfo).port
    }/api/gitlab-env/entity/default/component/storefront`;
    if (!slug) {
      const list = await (
        await fetch(`${base}/environments?withHealth=false`)
      ).json();
      slug = list.environments.find(
        (e: any) => e.name === 'production/us-region',
      ).slug;
      await backend.stop();
      run -= 1;
      continue;
    }
    const logs = `${base}/environments/${slug}/logs?pod=${pod}&tailLines=10&follow=true`;
    cold.push(await firstLineMs(logs));
    await fetch(`${base}/environments/${slug}/resources`).then(r => r.json());
    warm.push(await firstLineMs(logs));
    baseline.push(await firstLineMs(direct, kasHeaders));
    await backend.stop();
  }

  const backend = await startBackendOnSimulator(simulator, {
    entities: [entity],
  });
  const base = `http://127.0.0.1:${
    (backend.server.address() as AddressInfo).port
  }/api/gitlab-env/entity/default/component/storefront`;
  await fetch(`${base}/environments/${slug}/resources`).then(r => r.json());
  const directRate = await linesPerSecond(direct, kasHeaders);
  const backendRate = await linesPerSecond(
    `${base}/environments/${slug}/logs?pod=${pod}&tailLines=10&follow=true`,
  );
  await backend.stop();
  await simulator.close();

  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `Pod log follow, ${LATENCY_MS} ms upstream latency, median of ${RUNS}`,
  );
  console.log(
    `first line, straight from KAS (baseline): ${median(baseline).toFixed(
      0,
    )} ms`,
  );
  console.log(
    `first line through the backend, page loaded: ${median(warm).toFixed(
      0,
    )} ms (${ratio(
      median(warm),
      median(baseline),
    )}x baseline; target under 1000 ms)`,
  );
  console.log(
    `first line through the backend, cold: ${median(cold).toFixed(
      0,
    )} ms (${ratio(median(cold), median(baseline))}x baseline)`,
  );
  console.log(
    `followed for ${FOLLOW_MS / 1000} s: ${directRate.toFixed(
      0,
    )} lines/s straight from KAS, ${backendRate.toFixed(
      0,
    )} lines/s through the backend (${ratio(
      backendRate,
      directRate,
    )}x baseline; target 1000 lines/s)`,
  );
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
