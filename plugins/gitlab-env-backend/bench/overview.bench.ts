/* eslint-disable no-console */
// The portal-wide overview at scale: 300 entities x 4 environments (all
// behind one agent) with 100 ms of latency on every upstream request
// (OVERVIEW_ENTITIES=30 for a quick run). For each setting it prints the
// time to the first rows, to all rows listed and to all health read, the
// upstream requests and the most in flight against the configured
// per-instance limit, then a second load within the cache lifetime. The
// baseline, measured in the same run, reads every namespace on its own
// (clusterWideReads: false). OVERVIEW_SETTINGS=default runs the default
// setting alone. Timings are printed, never asserted.
// Run: npm run bench:overview -w plugins/gitlab-env-backend
import { scenarioCatalogEntities } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { LoadTimes, loadOverview as load } from './overviewLoad';
import { overviewScenario } from './scenarios';
import { SimulatorProcess, startSimulatorProcess } from './simulatorProcess';
import {
  foldedTimeline,
  medianMs,
  meterUpstreamRequests,
  roundTripTimeline,
} from './upstreamMeter';

const LATENCY_MS = 100;
const ENTITIES = Number(process.env.OVERVIEW_ENTITIES ?? 300);

const SETTINGS = [
  { label: 'default limits', clusterWideReads: true },
  {
    label: 'baseline: default limits, every namespace on its own',
    clusterWideReads: false,
  },
  {
    label: 'tight limits',
    clusterWideReads: true,
    concurrency: { perInstance: 16, perAgent: 8 },
  },
];
const DEFAULT_PER_INSTANCE = 256;
const DEADLINE_MS = 600_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The health lines that carry an error: a figure from rows cut short by a deadline is no figure. */
function describeErrors(times: LoadTimes): string {
  const codes = Object.entries(times.errors);
  return `${times.healthLines} health lines, ${
    codes.length === 0
      ? 'none with an error'
      : `with errors: ${codes.map(([code, n]) => `${n} x ${code}`).join(', ')}`
  }`;
}

async function run(
  simulator: SimulatorProcess,
  roundTripMs: number,
  setting: (typeof SETTINGS)[number],
) {
  const meter = meterUpstreamRequests(simulator.url);
  const backend = await startBackendOnSimulator(simulator, {
    entities: scenarioCatalogEntities(overviewScenario(ENTITIES)),
    gitlabEnv: {
      // Longer than a cold load here, so the second load finds every read cached.
      cacheTtlSeconds: 1800,
      // Every row is read to its end, the baseline's too: a row cut short
      // by a deadline would make its figure no figure.
      requestDeadlineMs: DEADLINE_MS,
      overview: {
        clusterWideReads: setting.clusterWideReads,
        deadlineMs: DEADLINE_MS,
      },
      ...(setting.concurrency ? { concurrency: setting.concurrency } : {}),
    },
  });
  const baseUrl = `http://127.0.0.1:${
    (backend.server.address() as AddressInfo).port
  }`;
  const perInstance = setting.concurrency?.perInstance ?? DEFAULT_PER_INSTANCE;

  meter.reset();
  const coldStarted = performance.now();
  const cpuBefore = process.cpuUsage();
  const cold = await load(baseUrl);
  const cpu = process.cpuUsage(cpuBefore);
  const upstream = meter.read();
  const timeline = roundTripTimeline(meter.requests(), coldStarted);
  console.log(`\n${setting.label}`);
  console.log(
    `cold: first rows ${seconds(
      cold.firstRowsMs,
    )} (goal < 1 s), all rows ${seconds(cold.allRowsMs)}, all health ${seconds(
      cold.allHealthMs,
    )} (goal < 2 s) = ${(cold.allHealthMs / roundTripMs).toFixed(
      0,
    )} round trips`,
  );
  console.log(
    `cold: ${upstream.requests} upstream requests (${(
      upstream.requests / Math.max(cold.healthLines, 1)
    ).toFixed(2)} per environment read), at most ${
      upstream.maxInFlight
    } in flight (configured per-instance limit ${perInstance})`,
  );

  console.log(`cold: ${describeErrors(cold)}`);
  // The backend and this client share the process (the simulator has its
  // own): CPU time near the wall time means the load waited for the CPU.
  console.log(
    `cold: ${seconds(
      (cpu.user + cpu.system) / 1000,
    )} of this process's CPU time (backend and client), ${(
      ((cpu.user + cpu.system) / 1000 / cold.allHealthMs) *
      100
    ).toFixed(0)}% of the wall time`,
  );
  console.log(
    `cold: ${timeline.length} upstream round trips (runs of alike ones folded):`,
  );
  foldedTimeline(timeline).forEach(line => console.log(line));

  meter.reset();
  const warm = await load(baseUrl);
  console.log(
    `warm: all health ${seconds(warm.allHealthMs)}, ${
      meter.read().requests
    } upstream requests (goal 0); ${describeErrors(warm)}`,
  );
  // Its informers and timers go too: the next setting has the process alone.
  await backend.stop();
  meter.restore();
  return cold;
}

async function main() {
  const simulator = await startSimulatorProcess(
    { name: 'overview', entities: ENTITIES },
    LATENCY_MS,
  );
  try {
    await compare(simulator);
  } finally {
    await simulator.close();
  }
}

async function compare(simulator: SimulatorProcess) {
  const roundTripMs = await medianMs(7, async () =>
    (await fetch(`${simulator.url}/api/v4/metadata`)).text(),
  );
  console.log(
    `entities=${ENTITIES} environments=${
      ENTITIES * 4
    } latency=${LATENCY_MS} ms measured round trip=${roundTripMs.toFixed(
      0,
    )} ms`,
  );
  const only = process.env.OVERVIEW_SETTINGS;
  const settings = only
    ? SETTINGS.filter(s => s.label.startsWith(only))
    : SETTINGS;
  const results = [];
  for (const setting of settings) {
    results.push(await run(simulator, roundTripMs, setting));
  }
  if (results.length > 1)
    console.log(
      `\nall health, baseline / cluster-wide reads at default limits: ${(
        results[1].allHealthMs / results[0].allHealthMs
      ).toFixed(1)}x`,
    );
}

main().then(
  // The backends' pools may still hold handles: the run is over.
  () => process.exit(0),
  error => {
    console.error(error);
    process.exit(1);
  },
);
