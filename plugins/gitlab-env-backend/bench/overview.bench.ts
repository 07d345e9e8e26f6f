/* eslint-disable no-console */
// The portal-wide overview at scale: 300 entities x 4 environments (all
// behind one agent) with 100 ms of latency on every upstream request
// (OVERVIEW_ENTITIES=30 for a quick run). For each setting it prints the
// time to the first rows, to all rows listed and to all health read, the
// upstream requests and the most in flight against the configured
// per-instance limit, then a second load within the cache lifetime. The
// baseline, measured in the same run, reads every namespace on its own
// (clusterWideReads: false). Timings are printed, never asserted.
// Run: npm run bench:overview -w plugins/gitlab-env-backend
import { OverviewStreamLine } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { scenarioCatalogEntities } from '@gitlab-env/gitlab-simulator';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { overviewScenario } from './scenarios';
import { SimulatorProcess, startSimulatorProcess } from './simulatorProcess';
import { medianMs, meterUpstreamRequests } from './upstreamMeter';

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

async function run(
  simulator: SimulatorProcess,
  roundTripMs: number,
  setting: (typeof SETTINGS)[number],
) {
  const meter = meterUpstreamRequests(simulator.url);
  const { server } = await startBackendOnSimulator(simulator, {
    entities: scenarioCatalogEntities(overviewScenario(ENTITIES)),
    gitlabEnv: {
      // Longer than a cold load here, so the second load finds every read cached.
      cacheTtlSeconds: 1800,
      overview: { clusterWideReads: setting.clusterWideReads },
      ...(setting.concurrency ? { concurrency: setting.concurrency } : {}),
    },
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const perInstance = setting.concurrency?.perInstance ?? DEFAULT_PER_INSTANCE;

  meter.reset();
  const cold = await load(baseUrl);
  const upstream = meter.read();
  console.log(`\n${setting.label}`);
  console.log(
    `cold: first rows ${seconds(
      cold.firstRowsMs,
    )} (goal < 1 s), all rows ${seconds(cold.allRowsMs)}, all health ${seconds(
      cold.allHealthMs,
    )} (goal < 15 s) = ${(cold.allHealthMs / roundTripMs).toFixed(
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

  meter.reset();
  const warm = await load(baseUrl);
  console.log(
    `warm: all health ${seconds(warm.allHealthMs)}, ${
      meter.read().requests
    } upstream requests (goal 0)`,
  );
  server.close();
  meter.restore();
  return cold;
}

async function main() {
  const simulator = await startSimulatorProcess(
    { name: 'overview', entities: ENTITIES },
    LATENCY_MS,
  );
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
  const results = [];
  for (const setting of SETTINGS) {
    results.push(await run(simulator, roundTripMs, setting));
  }
  console.log(
    `\nall health, baseline / cluster-wide reads at default limits: ${(
      results[1].allHealthMs / results[0].allHealthMs
    ).toFixed(1)}x`,
  );
  await simulator.close();
  process.exit(0);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
