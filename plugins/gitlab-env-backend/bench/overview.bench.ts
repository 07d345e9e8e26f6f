/* eslint-disable no-console */
// The portal-wide overview at scale: 300 entities x 4 environments behind
// 100 ms of upstream latency. Prints the time to the first rows, to all
// rows, the upstream request count and the most requests seen in flight,
// then a second load within the cache lifetime. Timings are printed, never
// asserted.
import {
  generateScenario,
  scenarioCatalogEntities,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';

const LATENCY_MS = 100;
const PER_INSTANCE = 16;

async function load(baseUrl: string) {
  const started = performance.now();
  let firstRowsMs: number | undefined;
  let rows = 0;
  await new Promise<void>((resolve, reject) => {
    http
      .get(`${baseUrl}/api/gitlab-env/overview`, response => {
        let buffered = '';
        response.setEncoding('utf8');
        response.on('data', chunk => {
          buffered += chunk;
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          for (const line of lines.filter(Boolean)) {
            const parsed = JSON.parse(line);
            if (parsed.type === 'entity' && parsed.rows.length > 0) {
              firstRowsMs ??= performance.now() - started;
              rows += parsed.rows.length;
            }
          }
        });
        response.on('end', () => resolve());
      })
      .on('error', reject);
  });
  return {
    firstRowsMs: firstRowsMs ?? NaN,
    allMs: performance.now() - started,
    rows,
  };
}

async function main() {
  const scenario = generateScenario({
    projects: 300,
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
      cacheTtlSeconds: 300,
      concurrency: { perInstance: PER_INSTANCE, perAgent: 8 },
    },
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  simulator.resetStats();
  const cold = await load(baseUrl);
  const coldRequests = simulator.stats().requests;
  console.log(
    `entities=300 environments=${cold.rows} upstream latency=${LATENCY_MS} ms`,
  );
  console.log(
    `cold: first rows after ${cold.firstRowsMs.toFixed(
      0,
    )} ms (goal < 1000), all after ${cold.allMs.toFixed(0)} ms (goal < 15000)`,
  );
  console.log(
    `cold: ${coldRequests} upstream requests, at most ${maxInFlight} in flight (configured per-instance limit ${PER_INSTANCE})`,
  );
  console.log(
    `cold all-rows time = ${(cold.allMs / LATENCY_MS).toFixed(
      1,
    )} x the upstream latency`,
  );

  simulator.resetStats();
  const warm = await load(baseUrl);
  console.log(
    `warm: all after ${warm.allMs.toFixed(0)} ms, ${
      simulator.stats().requests
    } upstream requests (goal 0)`,
  );

  globalThis.fetch = realFetch;
  server.close();
  await simulator.close();
  process.exit(0);
}

main();
