import { build } from 'esbuild';
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { askChild } from './askChild';
import type { BackendChildOptions } from './backendChild';
import { MeteredRequest } from './upstreamMeter';

/** What the backend's process tells of its memory. */
export interface BackendMemory {
  usage: NodeJS.MemoryUsage;
  /** The peak resident set so far (VmHWM), bytes. */
  peakRss: number;
  /** CPU time the process used so far. */
  cpu: NodeJS.CpuUsage;
}

export interface BackendProcess {
  port: number;
  /** process.memoryUsage() in the backend's process before the backend started. */
  before: NodeJS.MemoryUsage;
  memory(): Promise<BackendMemory>;
  heapSnapshot(path: string): Promise<string>;
  /** The upstream meter in the backend's process (started with meterUpstream). */
  meter: {
    reset(): Promise<void>;
    /** Counts and every request since the last reset, times on meterClockMs. */
    read(): Promise<{
      requests: number;
      maxInFlight: number;
      log: MeteredRequest[];
    }>;
  };
  /** A CPU profile of the backend's process from now until the returned stop (see cpuProfile.ts). */
  startCpuProfile(path: string): Promise<{ stop(): Promise<void> }>;
  close(): Promise<void>;
}

const OUT_DIR = join(__dirname, '..', 'node_modules', '.cache', 'live-bench');

/**
 * Compiles backendChild.ts the way a production build does (one bundle of
 * the plugin's and its workspace packages' TypeScript; everything from
 * node_modules loaded as the JavaScript it ships as). Written under the
 * package's node_modules so the bundle resolves the same dependencies.
 */
export async function compileBackendChild(): Promise<string> {
  const outfile = join(OUT_DIR, 'backendChild.cjs');
  // A new file, not the old one rewritten: a git worktree whose
  // node_modules are hard links of another's would write into its bundle.
  rmSync(outfile, { force: true });
  await build({
    entryPoints: [join(__dirname, 'backendChild.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    // The simulator's loader, pulled in for the demo token, warns about require.resolve.
    logLevel: 'error',
    plugins: [
      {
        name: 'node-modules-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, args =>
            args.path.startsWith('@gitlab-env/')
              ? undefined
              : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return outfile;
}

/**
 * Starts the compiled backend on the simulator in a child process: plain
 * node, no flags, unless BENCH_BACKEND_NODE_FLAGS names some (a study, such
 * as --trace-gc; never a figure to report as production's).
 */
export function startBackendProcess(
  bundle: string,
  options: BackendChildOptions,
): Promise<BackendProcess> {
  const child = fork(bundle, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: (process.env.BENCH_BACKEND_NODE_FLAGS ?? '')
      .split(' ')
      .filter(Boolean),
  });
  const ask = askChild(child);
  return new Promise((resolve, reject) => {
    child.once('exit', code =>
      reject(new Error(`the backend exited with ${code} before it was ready`)),
    );
    child.once(
      'message',
      (message: { port: number; before: NodeJS.MemoryUsage }) => {
        child.removeAllListeners('exit');
        resolve({
          port: message.port,
          before: message.before,
          memory: () => ask<BackendMemory>('memory'),
          heapSnapshot: async path =>
            (await ask<{ path: string }>('heap-snapshot', { path })).path,
          meter: {
            reset: async () => {
              await ask('meter-reset');
            },
            read: () => ask('meter-read'),
          },
          startCpuProfile: async path => {
            await ask('profile-start', { path });
            return {
              stop: async () => {
                await ask('profile-stop');
              },
            };
          },
          close: () =>
            new Promise<void>(done => {
              if (child.exitCode !== null || child.signalCode !== null) {
                done();
                return;
              }
              child.once('exit', () => done());
              child.send({ type: 'close' });
            }),
        });
      },
    );
    child.send({ type: 'start', ...options });
  });
}
