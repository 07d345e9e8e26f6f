/* eslint-disable no-console */
// One entity page: 3 environments behind 100 ms of latency on every upstream
// request, at the plugin's default concurrency limits. Two clusters: the
// issue's 25 kinds per namespace (22 built-in + 3 custom) and a heavier one
// with 25 custom kinds (47 in all), as a cluster with Flux, cert-manager and
// a few operators has. Prints upstream requests and wall time for a cold and
// a warm load, and the cold time as a multiple of the configured latency
// and of one upstream round trip measured in the same run. Timings are
// printed, never asserted.
// Run: npm run bench -w plugins/gitlab-env-backend
import { scenarioCatalogEntities } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { entityPageScenario } from './scenarios';
import { startSimulatorProcess } from './simulatorProcess';
import {
  medianMs,
  meterClockMs,
  meterUpstreamRequests,
  phaseOf,
  roundTripTimeline,
} from './upstreamMeter';

const LATENCY_MS = 100;
const SHAPES = [
  { customKinds: 3, note: 'the issue: 25 kinds' },
  { customKinds: 25, note: 'heavier: 47 kinds' },
];

async function getJson(url: string) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(
      `${url} answered ${response.status}: ${await response.text()}`,
    );
  }
  return response.json();
}

async function run(customKinds: number, note: string) {
  const simulator = await startSimulatorProcess(
    { name: 'entity-page', customKinds },
    LATENCY_MS,
  );
  const meter = meterUpstreamRequests(simulator.url);
  const [entity] = scenarioCatalogEntities(entityPageScenario(customKinds));
  /** A backend of its own: an empty cache. */
  async function startBackend() {
    const { server } = await startBackendOnSimulator(simulator, {
      entities: [entity],
      gitlabEnv: { cacheTtlSeconds: 300 },
    });
    const url = `http://127.0.0.1:${
      (server.address() as AddressInfo).port
    }/api/gitlab-env/entity/default/component/${entity.metadata.name}`;
    return { server, url };
  }

  // One upstream round trip as this machine serves it right now: the
  // latency plus connection and serving costs.
  const roundTripMs = await medianMs(7, async () =>
    (await fetch(`${simulator.url}/api/v4/metadata`)).text(),
  );

  // What the entity tab does: the environment cards (GitLab's list alone),
  // then every environment's resources and graph, opened in parallel.
  async function loadPage(entityUrl: string, label: string) {
    meter.reset();
    const started = meterClockMs();
    const list = await getJson(`${entityUrl}/environments`);
    const resources = await Promise.all(
      list.environments.map((e: { slug: string }) =>
        getJson(`${entityUrl}/environments/${e.slug}/resources`),
      ),
    );
    const totalMs = meterClockMs() - started;
    const upstream = meter.read().requests;
    const objects = resources.reduce(
      (n: number, r: { resources: unknown[] }) => n + r.resources.length,
      0,
    );
    console.log(
      `${label}: ${list.environments.length} environments, ${objects} objects, ` +
        `${totalMs.toFixed(0)} ms, ${upstream} upstream requests`,
    );
    return {
      totalMs,
      upstream,
      lists: meter.requests().filter(r => phaseOf(r) === 'KAS list').length,
      timeline: roundTripTimeline(meter.requests(), started),
    };
  }

  console.log(
    `\n${note} (${customKinds} custom), latency ${LATENCY_MS} ms, measured round trip ${roundTripMs.toFixed(
      0,
    )} ms, default concurrency limits`,
  );
  // A portal serves many pages: a cold load meets empty caches, not cold
  // code. The first load of this process is printed, then measured again
  // on a second backend whose caches are empty, in a process that has run.
  const first = await startBackend();
  const firstLoad = await loadPage(first.url, 'first load of the process');
  first.server.close();
  const { server, url } = await startBackend();
  const cold = await loadPage(url, 'cold');
  console.log(
    `cold: ${cold.lists} lists (${
      customKinds + 22
    } kinds, 3 namespaces); page = ${(cold.totalMs / LATENCY_MS).toFixed(
      1,
    )} x latency (goal <= ${customKinds > 3 ? 5 : 4}), ${(
      cold.totalMs / roundTripMs
    ).toFixed(1)} x measured round trip (first load of the process: ${(
      firstLoad.totalMs / LATENCY_MS
    ).toFixed(1)} x latency)`,
  );
  console.log(
    `cold: ${cold.timeline.length} upstream round trips (a request that left after another came back is one round trip later):`,
  );
  cold.timeline.forEach(line => console.log(line));
  const warm = await loadPage(url, 'warm');
  console.log(`warm: ${warm.upstream} upstream requests (goal 0)`);

  server.close();
  await simulator.close();
  meter.restore();
}

async function main() {
  for (const { customKinds, note } of SHAPES) await run(customKinds, note);
  process.exit(0);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
