import { fork } from 'node:child_process';
import { join } from 'node:path';
import { BenchScenario } from './scenarios';

export interface SimulatorProcess {
  url: string;
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
        close: () =>
          new Promise(done => {
            child.once('exit', () => done());
            child.send({ type: 'close' });
          }),
      });
    });
  });
}
