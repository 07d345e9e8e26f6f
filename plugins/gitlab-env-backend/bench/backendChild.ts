// The benchmarked backend in a process of its own, as production runs it:
// compiled JavaScript (liveBackendProcess.ts bundles this file with
// esbuild), no TypeScript compiler in the process, no benchmark code
// beside it. Answers the parent's questions over IPC: its memory (as it
// is, without a forced collection), and a heap snapshot on request.
import { Entity } from '@backstage/catalog-model';
import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { writeHeapSnapshot } from 'node:v8';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';

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

async function main() {
  const { simulatorUrl, entities, gitlabEnv } = JSON.parse(process.argv[2]) as {
    simulatorUrl: string;
    entities: Entity[];
    gitlabEnv: Record<string, unknown>;
  };
  const before = process.memoryUsage();
  const backend = await startBackendOnSimulator(
    { url: simulatorUrl },
    { entities, gitlabEnv },
  );
  process.on('message', async (message: { type: string; path?: string }) => {
    if (message.type === 'memory') {
      process.send!({
        type: 'memory',
        usage: process.memoryUsage(),
        peakRss: peakRss(),
        cpu: process.cpuUsage(),
      });
    }
    if (message.type === 'heap-snapshot') {
      process.send!({
        type: 'heap-snapshot',
        path: writeHeapSnapshot(message.path),
      });
    }
    if (message.type === 'close') {
      await backend.stop();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({
    type: 'ready',
    port: (backend.server.address() as AddressInfo).port,
    before,
  });
}

main().catch(error => {
  // eslint-disable-next-line no-console
  console.error(error);
  process.exit(1);
});
