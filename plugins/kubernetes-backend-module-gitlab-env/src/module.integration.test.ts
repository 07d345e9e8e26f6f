import {
  mockCredentials,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import kubernetesPlugin from '@backstage/plugin-kubernetes-backend';
import {
  DEMO_TOKEN,
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import kubernetesModuleGitlabEnv from '.';

// Starts the real Kubernetes backend and reaches the simulator through KAS:
// on a loaded 2-core machine the first query alone can pass jest's 5 s default.
jest.setTimeout(30_000);

const checkoutApi: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'checkout-api',
    namespace: 'default',
    annotations: {
      'backstage.io/kubernetes-id': 'checkout-api',
      'backstage.io/kubernetes-label-selector':
        'app.kubernetes.io/name=checkout-api',
    },
  },
  spec: { type: 'service', owner: 'team', lifecycle: 'production' },
};

const user = mockCredentials.user.header();

/**
 * The Kubernetes plugin's default object types but limitranges and
 * resourcequotas, which the simulator's API server does not serve (as the
 * demo portal configures it).
 */
const OBJECT_TYPES = [
  'pods',
  'services',
  'configmaps',
  'deployments',
  'replicasets',
  'horizontalpodautoscalers',
  'jobs',
  'cronjobs',
  'ingresses',
  'statefulsets',
  'daemonsets',
];

describe('the Kubernetes plugin on clusters behind GitLab agents (real kubernetes-backend, simulator)', () => {
  let simulator: RunningSimulator;
  let server: Awaited<ReturnType<typeof startTestBackend>>['server'];
  let stop: () => Promise<void>;

  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      kasTunnels: { findTimeoutMs: 200 },
    });
    const backend = await startTestBackend({
      features: [
        kubernetesPlugin,
        kubernetesModuleGitlabEnv,
        catalogServiceMock.factory({ entities: [checkoutApi] }),
        mockServices.rootConfig.factory({
          data: {
            kubernetes: {
              serviceLocatorMethod: { type: 'multiTenant' },
              objectTypes: OBJECT_TYPES,
            },
            gitlabEnv: {
              instances: [
                {
                  host: 'gitlab.example.com',
                  baseUrl: simulator.url,
                  token: DEMO_TOKEN,
                },
              ],
            },
          },
        }),
      ],
    });
    server = backend.server;
    stop = () => backend.stop();
  });
  afterAll(async () => {
    await stop?.();
    await simulator?.close();
  });

  it('lists every connected agent the token may use as a cluster, without the token', async () => {
    const res = await request(server)
      .get('/api/kubernetes/clusters')
      .set('authorization', user);
    expect(res.status).toBe(200);
    const items = res.body.items as Array<Record<string, any>>;
    // edge is shared with the bot but not connected: left out so no tab
    // waits on KAS's tunnel search; restricted, vault and lab are not
    // shared with the bot.
    expect(items.map(i => i.name).sort()).toEqual([
      'nonprod',
      'prod-eu',
      'prod-us',
    ]);
    expect(items.find(i => i.name === 'prod-us')).toEqual({
      name: 'prod-us',
      title: 'prod-us (acme/infra)',
      authProvider: 'gitlabAgent',
      auth: {
        'gitlab-env/instance': 'gitlab.example.com',
        'gitlab-env/agent-id': '1',
        'gitlab-env/agent': 'acme/infra: prod-us',
      },
    });
    expect(JSON.stringify(res.body)).not.toContain(DEMO_TOKEN);
  });

  it("reads an entity's workloads from the agents' clusters through KAS (POST /resources/workloads/query)", async () => {
    const res = await request(server)
      .post('/api/kubernetes/resources/workloads/query')
      .set('authorization', user)
      .send({ entityRef: 'component:default/checkout-api', auth: {} });
    expect(res.status).toBe(200);
    const prodUs = res.body.items.find(
      (i: any) => i.cluster.name === 'prod-us',
    );
    expect(prodUs.errors).toEqual([]);
    // metrics.k8s.io through KAS, as the Kubernetes tab shows it.
    expect(prodUs.podMetrics.length).toBeGreaterThan(0);
    expect(prodUs.podMetrics[0].cpu.currentUsage).toBeGreaterThan(0);
    const deployments = prodUs.resources.find(
      (r: any) => r.type === 'deployments',
    ).resources;
    expect(deployments.map((d: any) => d.metadata.name)).toContain(
      'checkout-api',
    );
    const pods = prodUs.resources.find((r: any) => r.type === 'pods').resources;
    expect(pods.length).toBeGreaterThan(0);
    expect(
      pods.every(
        (p: any) =>
          p.metadata.labels['app.kubernetes.io/name'] === 'checkout-api',
      ),
    ).toBe(true);
  });

  it('proxies a Kubernetes API request to the cluster named in the header (GET /proxy)', async () => {
    const res = await request(server)
      .get('/api/kubernetes/proxy/api/v1/namespaces/checkout/pods')
      .set('authorization', user)
      .set('Backstage-Kubernetes-Cluster', 'prod-us');
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('PodList');
    expect(res.body.items.length).toBeGreaterThan(0);
  });

  it('serves pod logs through the proxy', async () => {
    const pods = await request(server)
      .get('/api/kubernetes/proxy/api/v1/namespaces/checkout/pods')
      .set('authorization', user)
      .set('Backstage-Kubernetes-Cluster', 'prod-us');
    const pod = pods.body.items.find((p: any) => p.status.phase === 'Running');
    const res = await request(server)
      .get(
        `/api/kubernetes/proxy/api/v1/namespaces/checkout/pods/${pod.metadata.name}/log?container=api&tailLines=5`,
      )
      .set('authorization', user)
      .set('Backstage-Kubernetes-Cluster', 'prod-us');
    expect(res.status).toBe(200);
    expect(res.text.trim().split('\n').length).toBeGreaterThan(0);
  });
});

describe('beside clusters the portal configures itself', () => {
  it("keeps the Kubernetes plugin's own auth strategies and configured clusters", async () => {
    const simulator = await startGitlabSimulator({
      kasTunnels: { findTimeoutMs: 200 },
    });
    // Adding a strategy replaces the plugin's built-in map: without the
    // module adding them back, this serviceAccount cluster would stop the
    // plugin at start ("has no AuthenticationStrategy associated with it").
    const backend = await startTestBackend({
      features: [
        kubernetesPlugin,
        kubernetesModuleGitlabEnv,
        catalogServiceMock.factory({ entities: [] }),
        mockServices.rootConfig.factory({
          data: {
            kubernetes: {
              serviceLocatorMethod: { type: 'multiTenant' },
              clusterLocatorMethods: [
                {
                  type: 'config',
                  clusters: [
                    {
                      name: 'direct',
                      url: 'https://k8s.example.com',
                      authProvider: 'serviceAccount',
                      serviceAccountToken: 'a-service-account-token',
                    },
                  ],
                },
              ],
            },
            gitlabEnv: {
              instances: [
                {
                  host: 'gitlab.example.com',
                  baseUrl: simulator.url,
                  token: DEMO_TOKEN,
                },
              ],
            },
          },
        }),
      ],
    });
    try {
      const res = await request(backend.server)
        .get('/api/kubernetes/clusters')
        .set('authorization', user);
      expect(
        res.body.items.map((i: any) => [i.name, i.authProvider]).sort(),
      ).toEqual([
        ['direct', 'serviceAccount'],
        ['nonprod', 'gitlabAgent'],
        ['prod-eu', 'gitlabAgent'],
        ['prod-us', 'gitlabAgent'],
      ]);
    } finally {
      await backend.stop();
      await simulator.close();
    }
  });
});
