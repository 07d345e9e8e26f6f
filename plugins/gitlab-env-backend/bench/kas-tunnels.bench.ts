/* eslint-disable no-console */
// A cold entity page (3 environments, 47 kinds each: about 150 lists through
// one agent) through the simulator's model of agentk's tunnel pool (2 idle
// tunnels, 10 more at a time; gitlab-agent reverse_tunnel/agent/factory.go),
// at several per-agent concurrency limits. The control is the same page at
// the old default (128) against a pool already grown to 500 tunnels, measured
// in the same run. Printed per limit: wall time, ratio to the control, the
// peak of tunnels in use, and how many requests waited inside KAS for a
// tunnel and for how long (KAS gives up after 20 s with a 502 that reads as
// "agent not connected"). Timings are printed, never asserted.
// Run: npm run bench:tunnels -w plugins/gitlab-env-backend
import {
  REAL_TUNNEL_POOL,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { entityPageScenario } from './scenarios';
import { SimulatorProcess, startSimulatorProcess } from './simulatorProcess';

const LATENCY_MS = 50;
/** Modelled: agentk opening a tunnel, and a request's KAS↔agentk↔apiserver round trip. */
const POOL = { connectMs: 50, roundTripMs: 50 };
const CUSTOM_KINDS = 25;
const LIMITS = [128, 32, 12, 4];
const RUNS = 3;

async function getJson(url: string) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url} answered ${response.status}`);
  }
  return response.json();
}

const [entity] = scenarioCatalogEntities(entityPageScenario(CUSTOM_KINDS));

/** One cold page on a fresh backend and a fresh agentk pool. */
async function coldPage(simulator: SimulatorProcess, perAgent: number) {
  await simulator.reset();
  const backend = await startBackendOnSimulator(simulator, {
    entities: [entity],
    gitlabEnv: { concurrency: { perAgent } },
  });
  const url = `http://127.0.0.1:${
    (backend.server.address() as AddressInfo).port
  }/api/gitlab-env/entity/default/component/${entity.metadata.name}`;
  const started = performance.now();
  const list = await getJson(`${url}/environments?withHealth=false`);
  await Promise.all(
    list.environments.map((e: { slug: string }) =>
      getJson(`${url}/environments/${e.slug}/resources`),
    ),
  );
  const ms = performance.now() - started;
  const stats = await simulator.stats();
  await backend.stop();
  const agent = Object.keys(stats.peakTunnelsInUse)[0];
  return {
    ms,
    peak: stats.peakTunnelsInUse[agent] ?? 0,
    waits: stats.tunnelWaits[agent] ?? { waited: 0, maxWaitMs: 0 },
    kas: stats.kas,
  };
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(simulator: SimulatorProcess, perAgent: number) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await coldPage(simulator, perAgent));
  return {
    ms: median(runs.map(r => r.ms)),
    peak: Math.max(...runs.map(r => r.peak)),
    waited: median(runs.map(r => r.waits.waited)),
    maxWaitMs: Math.max(...runs.map(r => r.waits.maxWaitMs)),
    kas: runs[0].kas,
  };
}

async function main() {
  const scenario = { name: 'entity-page' as const, customKinds: CUSTOM_KINDS };
  const grown = await startSimulatorProcess(scenario, LATENCY_MS, {
    ...POOL,
    minIdle: REAL_TUNNEL_POOL.max,
  });
  const pooled = await startSimulatorProcess(scenario, LATENCY_MS, POOL);
  // Warm the code paths once: a portal's cold page meets empty caches, not cold code.
  await coldPage(grown, 128);
  await coldPage(pooled, 128);

  const control = await measure(grown, 128);
  console.log(
    `latency ${LATENCY_MS} ms; modelled tunnel connect ${POOL.connectMs} ms, request round trip ${POOL.roundTripMs} ms; median of ${RUNS} cold pages`,
  );
  console.log(
    `control (pool already at 500 tunnels, perAgent 128): ${control.ms.toFixed(
      0,
    )} ms, ${control.kas} KAS requests, peak ${control.peak} tunnels`,
  );
  for (const perAgent of LIMITS) {
    const result = await measure(pooled, perAgent);
    console.log(
      `perAgent ${String(perAgent).padStart(3)}: ${result.ms.toFixed(
        0,
      )} ms = ${(result.ms / control.ms).toFixed(2)} x control; peak ${
        result.peak
      } tunnels; ${
        result.waited
      } requests waited in KAS for a tunnel, longest ${result.maxWaitMs} ms`,
    );
  }
  await grown.close();
  await pooled.close();
  process.exit(0);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
