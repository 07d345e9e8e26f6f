import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { FaultKnobs } from '@gitlab-env/gitlab-simulator';
import { BenchScenario } from './scenarios';

export interface SimulatorProcess {
  url: string;
  /** Sets the simulator's fault knobs; resolves once they apply. */
  setFaults(faults: Partial<FaultKnobs>): Promise<void>;
  close(): Promise<void>;
}

/** Starts the simulator, serving a bench scenario, in a child process. */
export function startSimulatorProcess(
  scenario: BenchScenario,
  latencyMs: number,
): Promise<SimulatorProcess> {
  const child = fork(
    require.resolve('tsx/cli'),
    [
      join(__dirname, 'simulatorChild.ts'),
      JSON.stringify({ scenario, latencyMs }),
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
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
      resolve({
        url: message.url,
        setFaults: faults =>
          new Promise(done => {
            child.once('message', () => done());
            child.send({ type: 'faults', faults });
          }),
        close: () =>
          new Promise(done => {
            child.once('exit', () => done());
            child.send({ type: 'close' });
          }),
      });
    });
  });
}
