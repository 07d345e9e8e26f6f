// The benchmarked backend in a process of its own, as production runs it:
// compiled JavaScript (liveBackendProcess.ts bundles this file with
// esbuild), no TypeScript compiler in the process, no benchmark code
// beside it. Answers the parent's questions over IPC: its memory and CPU
// time (as they are, without a forced collection), a heap snapshot, and,
// when started with meterUpstream, the upstream meter (upstreamMeter.ts,
// which must see this process's node:http) and a CPU profile of a span.
import { Entity } from '@backstage/catalog-model';
import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { writeHeapSnapshot } from 'node:v8';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';
import { startCpuProfile } from './cpuProfile';
import { meterUpstreamRequests } from './upstreamMeter';

/** What the parent sends first: the backend to start (over IPC, as the catalog outgrows a command line). */
export interface BackendChildOptions {
  simulatorUrl: string;
  entities: Entity[];
  gitlabEnv: Record<string, unknown>;
  /** Count this process's upstream requests (meter-reset, meter-read). */
  meterUpstream?: boolean;
}

/** The process's peak resident set (VmHWM), in bytes; 0 where /proc has none. */
function peakRss(): number {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

type Message = { type: string; path?: string };

async function start({
  simulatorUrl,
  entities,
  gitlabEnv,
  meterUpstream,
}: BackendChildOptions) {
  const before = process.memoryUsage();
  const meter = meterUpstream ? meterUpstreamRequests(simulatorUrl) : undefined;
  const backend = await startBackendOnSimulator(
    { url: simulatorUrl },
    { entities, gitlabEnv },
  );
  let profile: Awaited<ReturnType<typeof startCpuProfile>> | undefined;
  const answers: Record<string, (message: Message) => Promise<object>> = {
    memory: async () => ({
      usage: process.memoryUsage(),
      peakRss: peakRss(),
      cpu: process.cpuUsage(),
    }),
    'heap-snapshot': async ({ path }) => ({ path: writeHeapSnapshot(path) }),
    'meter-reset': async () => {
      meter!.reset();
      return {};
    },
    'meter-read': async () => ({ ...meter!.read(), log: meter!.requests() }),
    'profile-start': async ({ path }) => {
      profile = await startCpuProfile(path!);
      return {};
    },
    'profile-stop': async () => {
      await profile?.stop();
      profile = undefined;
      return {};
    },
  };
  process.on('message', async (message: Message) => {
    if (message.type === 'close') {
      await backend.stop();
      process.exit(0);
    }
    const answer = answers[message.type];
    if (!answer) return;
    try {
      process.send!({ type: message.type, ...(await answer(message)) });
    } catch (error) {
      // Said to the parent, which would otherwise wait for a reply forever.
      process.send!({ type: message.type, error: String(error) });
    }
  });
  process.send!({
    type: 'ready',
    port: (backend.server.address() as AddressInfo).port,
    before,
  });
}

process.on('disconnect', () => process.exit(0));
process.once('message', (message: { type: string } & BackendChildOptions) => {
  if (message.type !== 'start') return;
  start(message).catch(error => {
    // eslint-disable-next-line no-console
    console.error(error);
    process.exit(1);
  });
});
