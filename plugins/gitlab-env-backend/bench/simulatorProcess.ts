import { fork } from 'node:child_process';
import { join } from 'node:path';
import type {
  FaultKnobs,
  SimulatorStats,
  TunnelPoolOptions,
} from '@gitlab-env/gitlab-simulator';
import { askChild } from './askChild';
import { BenchScenario } from './scenarios';

export interface SimulatorProcess {
  url: string;
  /** Sets the simulator's fault knobs; resolves once they apply. */
  setFaults(faults: Partial<FaultKnobs>): Promise<void>;
  /** The simulator's counters, e.g. the peak of agentk tunnels in use. */
  stats(): Promise<SimulatorStats>;
  /** Makes `perSecond` pod changes per second behind the agent (see SimulatedCluster.startChurn). */
  startChurn(
    agent: string,
    perSecond: number,
    namespaces?: string[],
    /** Each change also a container restart (one the page draws). */
    restarts?: boolean,
  ): Promise<void>;
  stopChurn(): Promise<void>;
  /** Watch requests the agent's cluster serves right now. */
  openWatches(agent: string): Promise<number>;
  /** CPU time the simulator's process has used, in ms. */
  cpuMs(): Promise<number>;
  /** Zeroes the counters and takes agentk's pools back to their idle tunnels. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The flags a child needs to run TypeScript: the benchmark's own, tsx's loader added unless they have it. */
export function withTsx(execArgv: readonly string[]): string[] {
  return execArgv.some(flag => flag.includes('tsx'))
    ? [...execArgv]
    : [...execArgv, '--import', 'tsx'];
}

/** Starts the simulator, serving a bench scenario, in a child process. */
export function startSimulatorProcess(
  scenario: BenchScenario,
  latencyMs: number,
  kasTunnels?: Partial<TunnelPoolOptions>,
): Promise<SimulatorProcess> {
  // Node itself runs the child, with tsx's loader, rather than tsx's CLI:
  // the CLI's process between the two kept the simulator running (and
  // serving) after a benchmark that failed had exited, as its own
  // 'disconnect' never came.
  const child = fork(
    join(__dirname, 'simulatorChild.ts'),
    [JSON.stringify({ scenario, latencyMs, kasTunnels })],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // BENCH_SIMULATOR_NODE_FLAGS: flags for a study (e.g. --cpu-prof).
      execArgv: [
        ...withTsx(process.execArgv),
        ...(process.env.BENCH_SIMULATOR_NODE_FLAGS ?? '')
          .split(' ')
          .filter(Boolean),
      ],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', code =>
      reject(
        new Error(`the simulator exited with ${code} before it was ready`),
      ),
    );
    child.once('message', (message: { type: string; url: string }) => {
      child.removeAllListeners('exit');
      const ask = askChild(child);
      resolve({
        url: message.url,
        setFaults: faults =>
          new Promise(done => {
            child.once('message', () => done());
            child.send({ type: 'faults', faults });
          }),
        stats: async () =>
          (await ask<{ stats: SimulatorStats }>('stats')).stats,
        cpuMs: async () => {
          const { cpu } = await ask<{ cpu: NodeJS.CpuUsage }>('cpu');
          return (cpu.user + cpu.system) / 1000;
        },
        reset: async () => {
          await ask('reset');
        },
        startChurn: async (agent, perSecond, namespaces, restarts) => {
          await ask('churn', { agent, perSecond, namespaces, restarts });
        },
        stopChurn: async () => {
          await ask('stop-churn');
        },
        openWatches: async agent =>
          (await ask<{ count: number }>('open-watches', { agent })).count,
        close: () =>
          new Promise(done => {
            child.once('exit', () => done());
            child.send({ type: 'close' });
          }),
      });
    });
  });
}
