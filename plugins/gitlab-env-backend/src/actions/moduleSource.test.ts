import { createBackendModule } from '@backstage/backend-plugin-api';
import { ActionsAllowedResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  environmentSlug,
  RunningSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
  startTestSimulator,
} from '../__testUtils__/backendOnSimulator';
import { STOREFRONT_ENTITY_PATH } from '../__testUtils__/storefrontTargets';
import { gitlabEnvObjectSourceExtensionPoint } from '../extensions';
import { POD_KIND } from '../__testUtils__/kinds';

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-1',
    namespace: 'storefront-staging',
    uid: 'uid-web-1',
    resourceVersion: '1',
  },
  spec: { containers: [{ name: 'web' }] },
  status: { phase: 'Running' },
};

/** A backend module serving the nonprod agent's cluster from memory: reads only. */
const memoryCluster = createBackendModule({
  pluginId: 'gitlab-env',
  moduleId: 'memory-cluster-for-actions',
  register(env) {
    env.registerInit({
      deps: { sources: gitlabEnvObjectSourceExtensionPoint },
      async init({ sources }) {
        sources.addClusterSource({
          serves: ({ agent }) => agent.name === 'nonprod',
          kinds: async () => [POD_KIND],
          list: async () => [pod],
          get: async () => undefined,
        });
      },
    });
  },
});

describe('actions on a cluster a backend module serves', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startTestSimulator();
  });
  afterAll(() => simulator.close());

  it('are refused as not applicable, and the allowed route says why per target', async () => {
    const backend = await startBackendOnSimulator(simulator, {
      entities: [
        component('storefront', {
          'gitlab.com/project-slug': 'acme/shop/storefront',
        }),
      ],
      features: [memoryCluster],
    });
    try {
      const environment = `${STOREFRONT_ENTITY_PATH}/environments/${environmentSlug(
        'staging',
      )}`;
      const target = {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'storefront-staging',
        name: 'web-1',
      };
      simulator.resetStats();
      const allowed = await request(backend.server)
        .post(`${environment}/actions/allowed`)
        .send({ targets: [target] })
        .expect(200);
      const [decisions] = (allowed.body as ActionsAllowedResponse).targets;
      expect(decisions.decisions['pod.delete']).toEqual({
        allowed: false,
        reason: expect.stringMatching(/backend module/),
      });
      expect(decisions.decisions['pod.logs']?.allowed).toBe(false);
      const refused = await request(backend.server)
        .post(`${environment}/actions`)
        .send({ action: 'pod.delete', target })
        .expect(400);
      expect(refused.body.gitlabEnv.code).toBe('ACTION_NOT_APPLICABLE');
      expect(simulator.stats().kas).toBe(0);
    } finally {
      await backend.stop();
    }
  });
});
