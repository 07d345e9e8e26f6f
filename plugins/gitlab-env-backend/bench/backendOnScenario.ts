// A generated scenario served by an in-process simulator, and the plugin in
// a test backend on it with the scenario's one entity: the set-up of the
// benchmarks that measure what one entity's callers receive.
import { BackendFeature } from '@backstage/backend-plugin-api';
import {
  Scenario,
  scenarioCatalogEntities,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'node:net';
import { startBackendOnSimulator } from '../src/__testUtils__/backendOnSimulator';

export async function backendOnScenario(
  scenario: Scenario,
  options: {
    gitlabEnv: Record<string, unknown>;
    config?: Record<string, unknown>;
    features?: BackendFeature[];
  },
) {
  const simulator = await startGitlabSimulator({
    port: 0,
    scenario,
    tickMs: 0,
  });
  const [entity] = scenarioCatalogEntities(scenario);
  const backend = await startBackendOnSimulator(simulator, {
    entities: [entity],
    ...options,
  });
  const url = `http://127.0.0.1:${
    (backend.server.address() as AddressInfo).port
  }`;
  return {
    simulator,
    entity,
    backend,
    url,
    close: async () => {
      await backend.stop();
      await simulator.close();
    },
  };
}
