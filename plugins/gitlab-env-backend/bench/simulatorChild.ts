// The simulator in a process of its own (see simulatorProcess.ts), so the
// upstream's work does not share the benchmarked backend's event loop.
import {
  FaultKnobs,
  startGitlabSimulator,
  TunnelPoolOptions,
} from '@gitlab-env/gitlab-simulator';
import { BenchScenario, buildScenario } from './scenarios';

/** What the benchmark asks of the simulator's process. */
interface SimulatorMessage {
  type: string;
  faults?: Partial<FaultKnobs>;
  agent?: string;
  perSecond?: number;
  namespaces?: string[];
  restarts?: boolean;
}

async function main() {
  const { scenario, latencyMs, kasTunnels } = JSON.parse(process.argv[2]) as {
    scenario: BenchScenario;
    latencyMs: number;
    kasTunnels?: Partial<TunnelPoolOptions>;
  };
  const simulator = await startGitlabSimulator({
    port: 0,
    scenario: buildScenario(scenario),
    faults: { latencyMs },
    // Health must not change while a benchmark compares it with a baseline.
    tickMs: 0,
    kasTunnels,
  });
  let stopChurn: (() => void) | undefined;
  process.on('message', async (message: SimulatorMessage) => {
    try {
      await answer(message);
    } catch (error) {
      // Said to the parent (askChild), which would otherwise wait forever.
      process.send!({ type: message.type, error: String(error) });
    }
  });
  async function answer(message: SimulatorMessage) {
    if (message.type === 'churn') {
      stopChurn?.();
      stopChurn = simulator
        .cluster(message.agent!)
        .startChurn(message.perSecond!, {
          namespaces: message.namespaces,
          restarts: message.restarts,
        });
      process.send!({ type: 'churn' });
    }
    if (message.type === 'stop-churn') {
      stopChurn?.();
      stopChurn = undefined;
      process.send!({ type: 'stop-churn' });
    }
    if (message.type === 'open-watches') {
      process.send!({
        type: 'open-watches',
        count: simulator.cluster(message.agent!).openWatches(),
      });
    }
    if (message.type === 'cpu') {
      process.send!({ type: 'cpu', cpu: process.cpuUsage() });
    }
    if (message.type === 'stats') {
      process.send!({ type: 'stats', stats: simulator.stats() });
    }
    if (message.type === 'reset') {
      simulator.resetStats();
      process.send!({ type: 'reset' });
    }
    if (message.type === 'faults') {
      simulator.setFaults(message.faults ?? {});
      process.send!({ type: 'faults-set' });
    }
    if (message.type === 'close') {
      await simulator.close();
      process.exit(0);
    }
  }
  // A benchmark that died without closing it must not leave it running.
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', url: simulator.url });
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
