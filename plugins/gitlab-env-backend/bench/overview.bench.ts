/* eslint-disable no-console */
// The portal-wide overview at scale: 300 entities x 4 environments behind
// 100 ms of upstream latency (OVERVIEW_ENTITIES=30 for a quick run). Prints
// the time to the first rows, to all rows listed, to all health read, the
// upstream request count and the most requests seen in flight, then a second
// load within the cache lifetime. Timings are printed, never asserted.
import {
  generateScenario,
  scenarioCatalogEntities,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { OverviewStreamLine } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';

const LATENCY_MS = 100;
const PER_INSTANCE = 16;
const PER_AGENT = 8;
const ENTITIES = Number(process.env.OVERVIEW_ENTITIES ?? 300);

interface LoadTimes {
  /** The first entity line that carries rows. */
  firstRowsMs: number;
  /** Every entity listed: all rows are on the page, health still pending. */
  allRowsMs: number;
  /** The done line: every row settled with its health. */
  allHealthMs: number;
  rows: number;
  healthLines: number;
}

async function load(baseUrl: string): Promise<LoadTimes> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const times: LoadTimes = {
    firstRowsMs: NaN,
    allRowsMs: NaN,
    allHealthMs: NaN,
    rows: 0,
    healthLines: 0,
  };
  let entities = Infinity;
  let entityLines = 0;
  const onLine = (line: OverviewStreamLine) => {
    if (line.type === 'start') entities = line.entities;
    if (line.type === 'entity') {
      entityLines += 1;
      times.rows += line.rows.length;
      if (line.rows.length > 0 && Number.isNaN(times.firstRowsMs))
        times.firstRowsMs = elapsed();
      if (entityLines === entities) times.allRowsMs = elapsed();
    }
    if (line.type === 'health') times.healthLines += 1;
    if (line.type === 'done') times.allHealthMs = elapsed();
  };
  await new Promise<void>((resolve, reject) => {
    http
      .get(`${baseUrl}/api/gitlab-env/overview`, response => {
        let buffered = '';
        response.setEncoding('utf8');
        response.on('data', chunk => {
          buffered += chunk;
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          lines.filter(Boolean).forEach(line => onLine(JSON.parse(line)));
        });
        response.on('end', () => resolve());
      })
      .on('error', reject);
  });
  return times;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const scenario = generateScenario({
    projects: ENTITIES,
    environmentsPerProject: 4,
    objectsPerEnvironment: 20,
    seed: 7,
  });
  const simulator = await startGitlabSimulator({
    port: 0,
    scenario,
    faults: { latencyMs: LATENCY_MS },
  });
  // Count upstream requests in flight at the network boundary: the backend's fetch.
  let inFlight = 0;
  let maxInFlight = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: any, init?: any) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await realFetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  const { server } = await startBackendOnSimulator(simulator, {
    entities: scenarioCatalogEntities(scenario),
    gitlabEnv: {
      // Longer than a cold load here, so the second load finds every read cached.
      cacheTtlSeconds: 1800,
      concurrency: { perInstance: PER_INSTANCE, perAgent: PER_AGENT },
    },
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  simulator.resetStats();
  const cold = await load(baseUrl);
  const coldRequests = simulator.stats().requests;
  console.log(
    `entities=${ENTITIES} rows=${cold.rows} health reads=${cold.healthLines} upstream latency=${LATENCY_MS} ms`,
  );
  console.log(
    `cold: first rows ${seconds(
      cold.firstRowsMs,
    )} (goal < 1 s), all rows ${seconds(
      cold.allRowsMs,
    )} (goal < 15 s), all health ${seconds(cold.allHealthMs)}`,
  );
  console.log(
    `cold: ${coldRequests} upstream requests (${(
      coldRequests / Math.max(cold.healthLines, 1)
    ).toFixed(
      1,
    )} per environment read), at most ${maxInFlight} in flight (configured per-instance limit ${PER_INSTANCE})`,
  );
  // Every generated environment sits behind one agent, so the per-agent
  // limit, not the per-instance one, bounds the resource reads.
  console.log(
    `cold: lower bound for all health = ${seconds(
      (coldRequests / Math.min(PER_INSTANCE, PER_AGENT)) * LATENCY_MS,
    )} (requests / min(per-instance ${PER_INSTANCE}, per-agent ${PER_AGENT}) x latency; one agent)`,
  );

  simulator.resetStats();
  const warm = await load(baseUrl);
  console.log(
    `warm: first rows ${seconds(warm.firstRowsMs)}, all health ${seconds(
      warm.allHealthMs,
    )}, ${simulator.stats().requests} upstream requests (goal 0)`,
  );

  globalThis.fetch = realFetch;
  server.close();
  await simulator.close();
  process.exit(0);
}

main();
