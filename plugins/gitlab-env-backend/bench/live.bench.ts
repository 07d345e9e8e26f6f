/* eslint-disable no-console */
// Live environments under load: 100 ms of latency on every upstream request
// and the simulator changing 50 pods per second, in two shapes: (a) 100
// viewers of one 10,000-object environment, (b) 20 environments of one agent
// with 5 viewers each. Prints the upstream watch connections next to what
// one watch per viewer would cost, the delay from the simulator's write to
// the change arriving on a viewer's stream next to the same delay seen by a
// client watching the simulator directly (the floor, measured in the same
// run), the engine's time per event next to a full rebuild (the
// bench:live-engine code, same run), and the backend's RSS next to the
// process's RSS before the backend started. Timings are printed, never
// asserted. Run: npm run bench:live -w plugins/gitlab-env-backend
import { LiveMessage } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  BENCH_AGENT,
  CHANGED_AT,
  DEMO_TOKEN,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';
import { fork } from 'node:child_process';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
// Benchmarks are not shipped: the engine's own measurement is reused as is.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import {
  measureLiveEngine,
  median,
  percentile,
} from '../../gitlab-env-common/bench/liveEngineMeasure';
import { liveScenario } from './scenarios';
import { startSimulatorProcess } from './simulatorProcess';

const LATENCY_MS = 100;
const CHANGES_PER_SECOND = 50;
const MEASURE_MS = 10_000;

function mb(bytes: number) {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function rss() {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

/** Write-to-arrival delays of the churn's changes found in objects received at `at`. */
function delaysOf(
  objects: Array<{ metadata?: any }>,
  at: number,
  into: number[],
) {
  for (const o of objects) {
    const changed = o.metadata?.annotations?.[CHANGED_AT];
    if (changed) into.push(at - Date.parse(changed));
  }
}

/** A client watching pods through KAS directly: the floor of any delay. */
async function directWatch(
  kasProxyUrl: string,
  namespace: string,
  delays: number[],
  signal: AbortSignal,
) {
  const response = await fetch(
    `${kasProxyUrl}/api/v1/namespaces/${namespace}/pods?watch=1&allowWatchBookmarks=true&resourceVersion=0`,
    {
      headers: { authorization: `Bearer pat:1:${DEMO_TOKEN}` },
      signal,
    },
  );
  const decoder = new TextDecoder();
  let pending = '';
  let counting = false;
  setTimeout(() => {
    counting = true;
  }, 1000);
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line || !counting) continue;
        const event = JSON.parse(line);
        if (event.type === 'MODIFIED')
          delaysOf([event.object], Date.now(), delays);
      }
    }
  } catch {
    // ended by the signal
  }
}

/** The viewers' process (liveViewers.ts), asked in turn: ready, measure, report, close. */
function startViewers(urls: string[]) {
  const child = fork(
    require.resolve('tsx/cli'),
    [join(__dirname, 'liveViewers.ts'), JSON.stringify({ urls })],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const replies: Array<{ type: string }> = [];
  const waiting = new Map<string, (reply: any) => void>();
  child.on('message', (reply: { type: string }) => {
    const done = waiting.get(reply.type);
    if (done) {
      waiting.delete(reply.type);
      done(reply);
    } else replies.push(reply);
  });
  return {
    ask<T>(type: string): Promise<T> {
      return new Promise(resolve => {
        const early = replies.findIndex(r => r.type === type);
        if (early !== -1) {
          resolve(replies.splice(early, 1)[0] as T);
          return;
        }
        waiting.set(type, resolve);
        if (type !== 'ready') child.send({ type });
      });
    },
    close: () =>
      new Promise<void>(resolve => {
        child.once('exit', () => resolve());
        child.send({ type: 'close' });
      }),
  };
}

async function run(
  label: string,
  environments: number,
  objectsPerEnvironment: number,
  viewersPerEnvironment: number,
) {
  const rssBefore = rss();
  const simulator = await startSimulatorProcess(
    { name: 'live', environments, objectsPerEnvironment },
    LATENCY_MS,
  );
  const [entity] = scenarioCatalogEntities(
    liveScenario(environments, objectsPerEnvironment),
  );
  const backend = await startBackendOnSimulator(simulator, {
    entities: [entity],
    gitlabEnv: { requestTimeoutMs: 30_000 },
  });
  const base = `http://127.0.0.1:${
    (backend.server.address() as AddressInfo).port
  }`;
  const entityRef = `component:default/${entity.metadata.name}`;
  const list = await (
    await fetch(
      `${base}/api/gitlab-env/entity/default/component/${entity.metadata.name}/environments?withHealth=false`,
    )
  ).json();
  const targets: Array<{ slug: string; namespace: string }> =
    list.environments.map((e: { slug: string; namespace: string }) => ({
      slug: e.slug,
      namespace: e.namespace,
    }));

  const urls = targets.flatMap(t =>
    Array.from(
      { length: viewersPerEnvironment },
      () =>
        `${base}/api/gitlab-env/live?environment=${encodeURIComponent(
          `${entityRef}/${t.slug}`,
        )}`,
    ),
  );
  const viewers = startViewers(urls);
  const ready = await viewers.ask<{
    firstSnapshotsMs: number;
    objects: number;
    status: Extract<LiveMessage, { type: 'status' }>;
  }>('ready');
  const kindsWatched = ready.status.kinds.filter(
    k => k.mode === 'watch',
  ).length;
  const objectsFollowed = ready.objects * targets.length;
  // Let every informer open its watch before counting.
  await new Promise(resolve => setTimeout(resolve, 2000));
  const watches = await simulator.openWatches(BENCH_AGENT);

  const direct: number[] = [];
  const stopDirect = new AbortController();
  const watching = directWatch(
    `${simulator.url}/-/kubernetes-agent/k8s-proxy`,
    targets[0].namespace,
    direct,
    stopDirect.signal,
  );
  await viewers.ask('measure');
  await simulator.startChurn(
    BENCH_AGENT,
    CHANGES_PER_SECOND,
    targets.map(t => t.namespace),
  );
  await new Promise(resolve => setTimeout(resolve, MEASURE_MS));
  await simulator.stopChurn();
  const { delays, patches, meanPatchBytes } = await viewers.ask<{
    delays: number[];
    patches: number;
    meanPatchBytes: number;
  }>('report');
  stopDirect.abort();
  await watching;
  const rssWith = rss();
  const { heapUsed, external } = process.memoryUsage();

  console.log(`\n${label}`);
  console.log(
    `  ${urls.length} viewers of ${targets.length} environment(s), ${objectsFollowed} objects followed, ${kindsWatched} kinds watched per scope; every viewer had its snapshot after ${ready.firstSnapshotsMs} ms`,
  );
  console.log(
    `  upstream watch connections: ${watches} (one per viewer per kind would be ${
      urls.length * kindsWatched
    }: ${((urls.length * kindsWatched) / Math.max(1, watches)).toFixed(
      0,
    )}x fewer; goal: one per kind per agent scope = ${kindsWatched})`,
  );
  console.log(
    `  write -> viewer delay: p50 ${median(delays).toFixed(
      0,
    )} ms, p99 ${percentile(delays, 0.99).toFixed(0)} ms over ${
      delays.length
    } deliveries (goal p99 < 250 ms); direct watch on the simulator (same run): p50 ${median(
      direct,
    ).toFixed(0)} ms, p99 ${percentile(direct, 0.99).toFixed(
      0,
    )} ms; p99 ratio ${(
      percentile(delays, 0.99) / Math.max(1, percentile(direct, 0.99))
    ).toFixed(1)}x`,
  );
  console.log(
    `  ${patches} patches received, ${(meanPatchBytes / 1024).toFixed(
      1,
    )} KB each on average`,
  );
  console.log(
    `  backend RSS: ${mb(
      rssWith,
    )} following them (viewers in another process), ${mb(
      rssBefore,
    )} before it started (+${mb(
      rssWith - rssBefore,
    )}); goal < 300 MB; of it JS heap in use ${mb(heapUsed)}, buffers ${mb(
      external,
    )}`,
  );
  await viewers.close();
  await backend.stop();
  await simulator.close();
}

async function main() {
  const only = process.env.LIVE_BENCH_ONLY;
  if (only !== 'b')
    await run('(a) 100 viewers of one environment', 1, 10_000, 100);
  if (only !== 'a')
    await run('(b) 20 environments of one agent x 5 viewers', 20, 500, 5);
  // Last: its 10,000-object graphs would count in the backend's RSS above.
  const engine = measureLiveEngine(10_000, 3_000);
  console.log(
    `\nengine at ${engine.objects} objects: ${engine.meanMs.toFixed(
      3,
    )} ms per applied event (p99 ${engine.p99Ms.toFixed(
      3,
    )} ms; goal < 1 ms), full rebuild ${engine.rebuildMs.toFixed(
      1,
    )} ms in the same run: ${(engine.rebuildMs / engine.meanMs).toFixed(
      0,
    )}x (goal >= 50x)`,
  );
  process.exit(0);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
