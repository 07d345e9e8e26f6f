/* eslint-disable no-console */
// The portal-wide overview at scale: 300 entities x 4 environments (all
// behind one agent) with 100 ms of latency on every upstream request
// (OVERVIEW_ENTITIES=30 for a quick run). For each setting it prints the
// time to the first rows, to all rows listed and to all health read, the
// upstream requests and the most in flight against the configured
// per-instance limit, the backend's CPU time, then a second load within
// the cache lifetime. The baseline, measured in the same run, reads every
// namespace on its own (clusterWideReads: false).
// The backend runs as production runs it: compiled JavaScript in a process
// of its own (liveBackendProcess.ts, backendChild.ts), metering its own
// upstream requests; this process only reads the stream. The simulator
// has a process of its own too. OVERVIEW_IN_PROCESS=1 runs the backend in
// this process under tsx instead, sharing its one thread with the client,
// as earlier runs measured it. OVERVIEW_SETTINGS=default runs the default
// setting alone. OVERVIEW_CPU_PROFILE=<file> writes a V8 CPU profile of the
// backend's process during the first setting's cold load alone, and
// <file>.heap the sampled allocations still held at its end (open both in
// Chrome's DevTools).
// Timings are printed, never asserted.
// Run: npm run bench:overview -w plugins/gitlab-env-backend
import { scenarioCatalogEntities } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { BackendChildOptions } from './backendChild';
import { startCpuProfile } from './cpuProfile';
import { compileBackendChild, startBackendProcess } from './liveBackendProcess';
import { LoadTimes, loadOverview as load } from './overviewLoad';
import { overviewScenario } from './scenarios';
import { SimulatorProcess, startSimulatorProcess } from './simulatorProcess';
import {
  foldedTimeline,
  medianMs,
  MeteredRequest,
  meterClockMs,
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

/** The backend under measure, wherever it runs, and its upstream meter. */
interface OverviewBackend {
  baseUrl: string;
  /** Where it runs, for the CPU line. */
  where: string;
  meterReset(): Promise<void>;
  meterRead(): Promise<{
    requests: number;
    maxInFlight: number;
    log: MeteredRequest[];
  }>;
  /** CPU ms the backend's process used so far. */
  cpuMs(): Promise<number>;
  startCpuProfile(file: string): Promise<{ stop(): Promise<void> }>;
  stop(): Promise<void>;
}

const IN_PROCESS = process.env.OVERVIEW_IN_PROCESS === '1';
let compiled: Promise<string> | undefined;

const cpuMsOf = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;

/** The backend in a process of its own, compiled as production runs it; or, with OVERVIEW_IN_PROCESS=1, in this one under tsx. */
async function startBackend(
  options: BackendChildOptions,
): Promise<OverviewBackend> {
  if (!IN_PROCESS) {
    compiled ??= compileBackendChild();
    const child = await startBackendProcess(await compiled, {
      ...options,
      meterUpstream: true,
    });
    return {
      baseUrl: `http://127.0.0.1:${child.port}`,
      where: "the backend's own process (compiled)",
      meterReset: child.meter.reset,
      meterRead: child.meter.read,
      cpuMs: async () => cpuMsOf((await child.memory()).cpu),
      startCpuProfile: child.startCpuProfile,
      stop: child.close,
    };
  }
  const meter = meterUpstreamRequests(options.simulatorUrl);
  try {
    const backend = await startBackendOnSimulator(
      { url: options.simulatorUrl },
      options,
    );
    return {
      baseUrl: `http://127.0.0.1:${
        (backend.server.address() as AddressInfo).port
      }`,
      where: 'this process (backend and client, under tsx)',
      meterReset: async () => meter.reset(),
      meterRead: async () => ({ ...meter.read(), log: meter.requests() }),
      cpuMs: async () => cpuMsOf(process.cpuUsage()),
      startCpuProfile,
      async stop() {
        // Its informers and timers go too: the next setting has the process alone.
        await backend.stop();
        meter.restore();
      },
    };
  } catch (error) {
    meter.restore();
    throw error;
  }
}

async function run(
  simulator: SimulatorProcess,
  roundTripMs: number,
  setting: (typeof SETTINGS)[number],
) {
  const backend = await startBackend({
    simulatorUrl: simulator.url,
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
  try {
    return await measure(backend, simulator, roundTripMs, setting);
  } finally {
    await backend.stop();
  }
}

async function measure(
  backend: OverviewBackend,
  simulator: SimulatorProcess,
  roundTripMs: number,
  setting: (typeof SETTINGS)[number],
) {
  const { baseUrl } = backend;
  const perInstance = setting.concurrency?.perInstance ?? DEFAULT_PER_INSTANCE;
  const profileFile =
    setting === SETTINGS[0] ? process.env.OVERVIEW_CPU_PROFILE : undefined;

  await backend.meterReset();
  const profiler = profileFile
    ? await backend.startCpuProfile(profileFile)
    : undefined;
  const cpuBefore = await backend.cpuMs();
  const simulatorCpuBefore = await simulator.cpuMs();
  const coldStarted = meterClockMs();
  const cold = await load(baseUrl);
  const cpuMs = (await backend.cpuMs()) - cpuBefore;
  const simulatorCpuMs = (await simulator.cpuMs()) - simulatorCpuBefore;
  // OVERVIEW_SETTLE_MS: the CPU (and the profile) also take the work the
  // load left for after it (the timeline's deferred writes).
  const settleMs = Number(process.env.OVERVIEW_SETTLE_MS ?? 0);
  if (settleMs > 0) {
    await new Promise(resolve => setTimeout(resolve, settleMs));
    console.log(
      `cold: ${seconds(
        (await backend.cpuMs()) - cpuBefore,
      )} of CPU time in the backend's process with the ${settleMs} ms after the load`,
    );
  }
  if (profiler) {
    await profiler.stop();
    console.log(
      `cold load's CPU profile written to ${profileFile} (allocations: ${profileFile}.heap)`,
    );
  }
  const upstream = await backend.meterRead();
  const timeline = roundTripTimeline(upstream.log, coldStarted);
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
  // CPU time near the wall time means the load waited for the backend's CPU.
  console.log(
    `cold: ${seconds(cpuMs)} of CPU time in ${backend.where}, ${(
      (cpuMs / cold.allHealthMs) *
      100
    ).toFixed(0)}% of the wall time; the simulator's process ${seconds(
      simulatorCpuMs,
    )} (both share this machine's ${availableParallelism()} cores)`,
  );
  console.log(
    `cold: ${timeline.length} upstream round trips (runs of alike ones folded):`,
  );
  foldedTimeline(timeline).forEach(line => console.log(line));

  await backend.meterReset();
  const warm = await load(baseUrl);
  console.log(
    `warm: all health ${seconds(warm.allHealthMs)}, ${
      (await backend.meterRead()).requests
    } upstream requests (goal 0); ${describeErrors(warm)}`,
  );
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
    )} ms; backend ${
      IN_PROCESS
        ? 'in this process under tsx (OVERVIEW_IN_PROCESS=1)'
        : 'compiled, in a process of its own'
    }`,
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
