/* eslint-disable no-console */
// The fault suite as figures: every simulator fault mode (see
// src/__testUtils__/faultSuite.ts) gets 200 requests, 8 at a time, spread
// over the entity pages' routes (each entity's environments with health,
// each environment's resources). Per mode it prints the outcomes (ok,
// partial, typed error, untyped), crashes, hangs past the deadline, badges
// that claim a definite health the full data does not have, p50/p99 (and
// p50 as a ratio to the no-fault baseline measured in the same run) and the
// backend's RSS before and after. The simulator runs in a process of its
// own, so RSS is the backend's. The last two modes ask CI access instead,
// for plain branches and for branches that set off hostile rules and
// wildcards (its p50 compared with the plain one's), and count a wrong
// decision as a wrong badge. Last, the worst event-loop delay of
// any mode (goal < 100 ms), the backend's: the client runs in a worker
// thread (bench/faultSuiteClient.ts). Figures are printed, never asserted.
// Run: npm run fault-suite -w plugins/gitlab-env-backend
import { HealthSummary } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../src/__testUtils__/backendOnSimulator';
import {
  badgesOf,
  FAULT_MODES,
  faultSuiteEntities,
  faultSuiteScenario,
  knobsOf,
  OUTCOMES,
  percentile,
  secretValues,
  SUITE_SETTINGS,
} from '../src/__testUtils__/faultSuite';
import { startClient } from './faultSuiteClient';
import { startSimulatorProcess } from './simulatorProcess';
import { measureWarmViewers } from './warmViewers';

const REQUESTS_PER_MODE = 200;
const CONCURRENCY = 8;
/** A request not answered by then never ends on its own: a hang. */
const HANG_AFTER_MS = SUITE_SETTINGS.requestDeadlineMs + 2_000;

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

/** RSS and heap after a full collection (the script runs with --expose-gc). */
function memory() {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const rss = () => memory().rss;

async function main() {
  const scenario = faultSuiteScenario();
  const entities = faultSuiteEntities(scenario);
  const secrets = secretValues(scenario);
  const simulator = await startSimulatorProcess(
    { name: 'fault-suite' },
    0,
    TEST_KAS_TUNNELS,
  );
  const { server } = await startBackendOnSimulator(simulator, {
    entities,
    gitlabEnv: SUITE_SETTINGS,
  });
  const base = `http://127.0.0.1:${
    (server.address() as AddressInfo).port
  }/api/gitlab-env`;

  let crashes = 0;
  // Each distinct crash is printed once, with its stack: the count alone
  // does not say where to look.
  const crashesSeen = new Set<string>();
  const crashed = (error: unknown) => {
    crashes++;
    const text =
      error instanceof Error ? error.stack ?? error.message : String(error);
    if (crashesSeen.has(text)) return;
    crashesSeen.add(text);
    console.error(`crash: ${text}`);
  };
  process.on('uncaughtException', crashed);
  process.on('unhandledRejection', crashed);

  const targets: string[] = [];
  for (const entity of entities) {
    const path = `/entity/default/component/${entity.metadata.name}`;
    targets.push(`${path}/environments?withHealth=true`);
    const list = await (await fetch(`${base}${path}/environments`)).json();
    for (const e of list.environments ?? []) {
      if (e.agent && e.namespace)
        targets.push(`${path}/environments/${e.slug}/resources`);
    }
  }
  const baseline = new Map<string, HealthSummary>();
  for (const path of targets) {
    const body = await (await fetch(`${base}${path}`)).json();
    for (const badge of badgesOf(path, body))
      baseline.set(badge.key, badge.health);
  }
  console.log(
    `${targets.length} routes (${entities.length} entity lists with health, ${
      targets.length - entities.length
    } resource reads), ${baseline.size} badges in the baseline; ` +
      `${REQUESTS_PER_MODE} requests per mode, ${CONCURRENCY} at a time; ` +
      `deadline ${SUITE_SETTINGS.requestDeadlineMs} ms, hang = no answer after ${HANG_AFTER_MS} ms`,
  );

  const header = [
    'mode'.padEnd(30),
    ...OUTCOMES.map(o => o.padStart(11)),
    'crashes',
    'hangs',
    'wrong badges',
    'leaks',
    'p50 ms',
    'p99 ms',
    'p50/base',
    'RSS MB before→after',
    'heap MB after',
    'loop delay max ms',
  ];
  console.log(header.join(' | '));

  const start = memory();
  const progress: {
    requestsDone: number;
    after1000?: ReturnType<typeof memory>;
  } = { requestsDone: 0 };
  const p50Of = new Map<string, number>();
  const totals = { untyped: 0, crashes: 0, hangs: 0, wrong: 0, leaks: 0 };
  const worstDelay = { ms: 0, mode: '' };

  // FAULT_MODES=oversized,none runs the modes whose names start so;
  // FAULT_MODES=warm only the warm viewers.
  const only = process.env.FAULT_MODES?.split(',');
  const modes = only
    ? FAULT_MODES.filter(m => only.some(o => m.name.startsWith(o)))
    : FAULT_MODES;
  for (const mode of modes) {
    await simulator.setFaults(knobsOf(mode));
    const before = rss();
    const crashesBefore = crashes;
    // The client runs in a worker thread of its own, started before and
    // ended after the mode's measures: the delay and memory are the backend's.
    const client = await startClient();
    // How long this process could not run at all: on a shared machine a
    // request can pass the hang mark without any bound of the backend failing.
    const loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
    const { outcomes, durations, hangs, wrong, leaks } = await client.send({
      base,
      targets,
      requests: mode.ciAccessRequests,
      count: REQUESTS_PER_MODE,
      concurrency: CONCURRENCY,
      hangAfterMs: HANG_AFTER_MS,
      baseline: [...baseline],
      secrets,
    });
    // The backend still answers: no crash took it down.
    const alive = await fetch(`${base}/health`).then(
      r => r.ok,
      () => false,
    );
    const modeCrashes = crashes - crashesBefore + (alive ? 0 : 1);
    loopDelay.disable();
    await client.close();
    progress.requestsDone += REQUESTS_PER_MODE;
    if (!progress.after1000 && progress.requestsDone >= 1000)
      progress.after1000 = memory();
    if (loopDelay.max / 1e6 > worstDelay.ms)
      Object.assign(worstDelay, { ms: loopDelay.max / 1e6, mode: mode.name });
    const p50 = percentile(durations, 50);
    p50Of.set(mode.name, p50);
    const baselineP50 = p50Of.get(mode.baseline ?? 'none');
    totals.untyped += outcomes.untyped;
    totals.crashes += modeCrashes;
    totals.hangs += hangs;
    totals.wrong += wrong;
    totals.leaks += leaks;
    console.log(
      [
        mode.name.padEnd(30),
        ...OUTCOMES.map(o => String(outcomes[o]).padStart(11)),
        String(modeCrashes).padStart(7),
        String(hangs).padStart(5),
        String(wrong).padStart(12),
        String(leaks).padStart(5),
        p50.toFixed(0).padStart(6),
        percentile(durations, 99).toFixed(0).padStart(6),
        (baselineP50 ? p50 / baselineP50 : 1).toFixed(1).padStart(8),
        `${mb(before)}→${mb(rss())}`,
        mb(memory().heapUsed),
        (loopDelay.max / 1e6).toFixed(0),
      ].join(' | '),
    );
  }

  // What is still held once nothing runs: a leak stays, garbage does not.
  await new Promise(resolve => setTimeout(resolve, 10_000));
  const end = memory();
  const growth = (to: ReturnType<typeof memory> | undefined) =>
    to
      ? `RSS +${mb(to.rss - start.rss)} MB, heap +${mb(
          to.heapUsed - start.heapUsed,
        )} MB`
      : '-';
  console.log(
    `\nTotals over ${progress.requestsDone} requests: ${totals.untyped} untyped, ${totals.crashes} crashes, ${totals.hangs} hangs, ${totals.wrong} definite-but-wrong badges, ${totals.leaks} responses with a Secret value. ` +
      `Start: RSS ${mb(start.rss)} MB, heap ${mb(start.heapUsed)} MB; ` +
      `after the first 1,000 requests: ${growth(
        progress.after1000,
      )}; after all: ${growth(
        end,
      )}. Goals: 0, 0, 0, 0, 0; RSS growth < 100 MB over 1,000 requests.`,
  );
  console.log(
    `Worst event-loop delay: ${worstDelay.ms.toFixed(0)} ms (${
      worstDelay.mode
    }); goal < 100 ms.`,
  );
  server.close();
  // Last, on a backend of its own with the default settings: its memory
  // must not count in the figures above.
  if (!only || only.includes('warm'))
    await measureWarmViewers(
      simulator,
      entities,
      targets.find(t => t.endsWith('/resources'))!,
    );
  await simulator.close();
  process.exit(0);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
