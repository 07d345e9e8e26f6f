/* eslint-disable no-console */
// Live environments under load: 100 ms of latency on every upstream request
// and the simulator restarting 50 pods per second, in two shapes: (a) 100
// viewers of one 10,000-object environment, (b) 20 environments of one agent
// with 5 viewers each. Prints the upstream watch connections next to what
// one watch per viewer would cost, the delay from the simulator's write to
// the change arriving on a viewer's stream next to the same delay seen by a
// client watching the simulator directly (the floor, measured in the same
// run), the engine's time per event next to a full rebuild (the
// bench:live-engine code, same run), the first snapshots next to sending
// the same bytes from a bare socket server, and the backend's memory. The
// backend runs twice per shape: in a process of its own from compiled
// JavaScript, as production runs it (the figure the goal is about), and in
// the benchmark's process under tsx as earlier runs measured it (TypeScript
// compiled in the process, its sources and the benchmark's code held
// beside the backend). LIVE_BENCH_BACKEND=process|in-process runs one.
// Each shape is read twice: as whole objects (the baseline) and as the
// compact tree the page asks for (form=tree: bytes an object, patch bytes);
// the pods' changes are container restarts, which the page draws.
// LIVE_BENCH_FORM=objects|tree reads one.
// Timings are printed, never asserted.
// Run: npm run bench:live -w plugins/gitlab-env-backend
import { LiveMessage } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  BENCH_AGENT,
  CHANGED_AT,
  DEMO_TOKEN,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';
import { fork } from 'node:child_process';
import { AddressInfo, createServer } from 'node:net';
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
import { startSimulatorProcess, SimulatorProcess } from './simulatorProcess';
import { compileBackendChild, startBackendProcess } from './liveBackendProcess';

const LATENCY_MS = 100;
const CHANGES_PER_SECOND = 50;
const MEASURE_MS = 10_000;

function mb(bytes: number) {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

type BackendMode = 'process' | 'in-process';

interface MemoryFigures {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  /** Peak resident set of the backend's own process (0 in-process). */
  peakRss: number;
  /** CPU ms the backend's own process used so far (0 in-process). */
  cpuMs: number;
}

interface BenchBackend {
  base: string;
  /** RSS before the backend started. */
  rssBefore: number;
  memory(): Promise<MemoryFigures>;
  heapSnapshot?(path: string): Promise<string>;
  stop(): Promise<void>;
}

let compiled: Promise<string> | undefined;

async function startBackend(
  mode: BackendMode,
  simulator: SimulatorProcess,
  entity: ReturnType<typeof scenarioCatalogEntities>[number],
  rssBefore: number,
): Promise<BenchBackend> {
  const gitlabEnv = { requestTimeoutMs: 30_000 };
  if (mode === 'process') {
    compiled ??= compileBackendChild();
    const child = await startBackendProcess(await compiled, {
      simulatorUrl: simulator.url,
      entities: [entity],
      gitlabEnv,
    });
    return {
      base: `http://127.0.0.1:${child.port}`,
      rssBefore: child.before.rss,
      memory: async () => {
        const { usage, peakRss, cpu } = await child.memory();
        return { ...usage, peakRss, cpuMs: (cpu.user + cpu.system) / 1000 };
      },
      heapSnapshot: path => child.heapSnapshot(path),
      stop: () => child.close(),
    };
  }
  const backend = await startBackendOnSimulator(simulator, {
    entities: [entity],
    gitlabEnv,
  });
  return {
    base: `http://127.0.0.1:${(backend.server.address() as AddressInfo).port}`,
    rssBefore,
    memory: async () => {
      return { ...process.memoryUsage(), rss: rss(), peakRss: 0, cpuMs: 0 };
    },
    stop: () => backend.stop(),
  };
}

/** A server writing `bytes` to each connection, one shared buffer: the floor of the first snapshots. */
async function bareServer(bytes: number) {
  const payload = Buffer.alloc(bytes, 'x');
  const server = createServer(socket => {
    socket.on('error', () => undefined);
    socket.write(payload);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise(resolve => server.close(resolve)),
  };
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
    ask<T>(type: string, detail: object = {}): Promise<T> {
      return new Promise(resolve => {
        const early = replies.findIndex(r => r.type === type);
        if (early !== -1) {
          resolve(replies.splice(early, 1)[0] as T);
          return;
        }
        waiting.set(type, resolve);
        if (type !== 'ready') child.send({ type, ...detail });
      });
    },
    close: () =>
      new Promise<void>(resolve => {
        child.once('exit', () => resolve());
        child.send({ type: 'close' });
      }),
  };
}

/** What the viewers ask: whole objects, or the compact tree the page asks (`form=tree`). */
type StreamForm = 'objects' | 'tree';

async function run(
  label: string,
  environments: number,
  objectsPerEnvironment: number,
  viewersPerEnvironment: number,
  mode: BackendMode,
  form: StreamForm,
) {
  const rssBefore = rss();
  const simulator = await startSimulatorProcess(
    { name: 'live', environments, objectsPerEnvironment },
    LATENCY_MS,
  );
  const [entity] = scenarioCatalogEntities(
    liveScenario(environments, objectsPerEnvironment),
  );
  const backend = await startBackend(mode, simulator, entity, rssBefore);
  const { base } = backend;
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
        )}${form === 'tree' ? '&form=tree' : ''}`,
    ),
  );
  const beforeViewers = await backend.memory();
  const viewers = startViewers(urls);
  const ready = await viewers.ask<{
    firstSnapshotsMs: number;
    firstViewerMs: number;
    cpuMs: number;
    snapshotBytes: number;
    objects: number;
    status: Extract<LiveMessage, { type: 'status' }>;
  }>('ready');
  const afterSnapshots = await backend.memory();
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
  // Container restarts: a change the page draws (the status line's
  // restarts), so the compact tree sends patches too.
  await simulator.startChurn(
    BENCH_AGENT,
    CHANGES_PER_SECOND,
    targets.map(t => t.namespace),
    true,
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
  const afterChurn = await backend.memory();
  const heapPath = process.env.LIVE_BENCH_HEAP;
  if (heapPath && backend.heapSnapshot)
    console.log(
      `  heap snapshot: ${await backend.heapSnapshot(
        `${heapPath}-${label.slice(1, 2)}.heapsnapshot`,
      )}`,
    );
  const bare = await bareServer(ready.snapshotBytes);
  const { ms: bareMs } = await viewers.ask<{ ms: number }>('bare', {
    port: bare.port,
    bytes: ready.snapshotBytes,
    count: urls.length,
  });
  await bare.close();

  console.log(
    `\n${label}, ${
      form === 'tree'
        ? 'the compact tree (form=tree, what the page asks)'
        : 'whole objects'
    }, backend ${
      mode === 'process'
        ? 'in a process of its own (compiled JavaScript, as in production)'
        : "in the benchmark's process under tsx (as measured before)"
    }`,
  );
  console.log(
    `  ${urls.length} viewers of ${targets.length} environment(s), ${objectsFollowed} objects followed, ${kindsWatched} kinds watched per scope`,
  );
  console.log(
    `  first snapshots: every viewer had its snapshot after ${
      ready.firstSnapshotsMs
    } ms, the first viewer after ${
      ready.firstViewerMs
    } ms (lists, graph, encoding); one snapshot ${mb(ready.snapshotBytes)} (${(
      ready.snapshotBytes /
      1024 /
      1024
    ).toFixed(1)} MB x ${urls.length} viewers${
      targets.length > 1 ? ', the first environment' : ''
    }; ${Math.round(
      ready.snapshotBytes / Math.max(1, ready.objects),
    )} bytes an object); the same bytes from a bare socket server to ${
      urls.length
    } sockets (same run): ${bareMs} ms${
      afterSnapshots.cpuMs
        ? `; the backend's CPU time until then ${(
            afterSnapshots.cpuMs - beforeViewers.cpuMs
          ).toFixed(0)} ms`
        : ''
    }, the viewers' process's ${ready.cpuMs.toFixed(0)} ms`,
  );
  console.log(
    `  upstream watch connections: ${watches} (one per viewer per kind would be ${
      urls.length * kindsWatched
    }: ${((urls.length * kindsWatched) / Math.max(1, watches)).toFixed(
      0,
    )}x fewer; goal: one per kind per agent scope = ${kindsWatched})`,
  );
  if (form === 'objects')
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
    )} KB each on average (${CHANGES_PER_SECOND} pod restarts a second for ${
      MEASURE_MS / 1000
    } s)${
      form === 'tree'
        ? ' (a tree patch names no write time: the delay is measured on whole objects)'
        : ''
    }`,
  );
  const figures = (m: MemoryFigures) =>
    `RSS ${mb(m.rss)} (JS heap ${mb(m.heapTotal)}, in use ${mb(
      m.heapUsed,
    )}, buffers ${mb(m.external)})`;
  console.log(
    `  backend memory: after the first snapshots ${figures(
      afterSnapshots,
    )}; after the churn ${figures(afterChurn)}${
      afterChurn.peakRss ? `; peak RSS ${mb(afterChurn.peakRss)}` : ''
    }; ${mb(backend.rssBefore)} before the backend started (+${mb(
      afterChurn.rss - backend.rssBefore,
    )}); goal < 300 MB${
      mode === 'in-process'
        ? ' (a forced collection before each reading; the simulator and viewers in other processes)'
        : ' (no forced collection)'
    }`,
  );
  await viewers.close();
  await backend.stop();
  await simulator.close();
}

async function main() {
  const only = process.env.LIVE_BENCH_ONLY;
  const modes: BackendMode[] =
    process.env.LIVE_BENCH_BACKEND === 'process' ||
    process.env.LIVE_BENCH_BACKEND === 'in-process'
      ? [process.env.LIVE_BENCH_BACKEND]
      : // In-process first: its figure starts from a fresh process, as before.
        ['in-process', 'process'];
  const forms: StreamForm[] =
    process.env.LIVE_BENCH_FORM === 'objects' ||
    process.env.LIVE_BENCH_FORM === 'tree'
      ? [process.env.LIVE_BENCH_FORM]
      : // Whole objects first: the baseline of the page's tree, same run.
        ['objects', 'tree'];
  for (const mode of modes) {
    for (const form of forms) {
      if (only !== 'b')
        await run(
          '(a) 100 viewers of one environment',
          1,
          10_000,
          100,
          mode,
          form,
        );
      if (only !== 'a')
        await run(
          '(b) 20 environments of one agent x 5 viewers',
          20,
          500,
          5,
          mode,
          form,
        );
    }
  }
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
