import { createBackendModule } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { EnvironmentResourcesResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import { startBackendOnSimulator } from './__testUtils__/backendOnSimulator';
import { gitlabEnvHealthRulesExtensionPoint } from './extensions';

const entities: Entity[] = [
  {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: 'checkout-api',
      namespace: 'default',
      annotations: { 'gitlab.com/project-slug': 'acme/shop/checkout-api' },
    },
    spec: { type: 'service', owner: 'team', lifecycle: 'production' },
  },
];

/** What an adopter's module looks like (see examples/backend-health-rules-module.ts). */
const kustomizationRulesModule = createBackendModule({
  pluginId: 'gitlab-env',
  moduleId: 'test-health-rules',
  register(env) {
    env.registerInit({
      deps: { healthRules: gitlabEnvHealthRulesExtensionPoint },
      async init({ healthRules }) {
        healthRules.addHealthRule({
          group: 'kustomize.toolkit.fluxcd.io',
          kind: 'Kustomization',
          rule: obj => ({
            status: 'Suspended',
            message: `Frozen by the platform team: ${obj.metadata?.name}`,
          }),
        });
      },
    });
  },
});

describe('adopters’ health rules in the backend', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startGitlabSimulator({ port: 0 });
  });
  afterAll(() => simulator.close());

  it('evaluates a module’s, app-config’s and Argo CD Lua rules on the server and ships their health with the graph', async () => {
    const { server } = await startBackendOnSimulator(simulator, {
      entities,
      gitlabEnv: {
        health: {
          rules: [
            {
              group: '',
              kind: 'Service',
              degraded: [{ field: 'spec.type', values: ['ClusterIP'] }],
              message: ['metadata.name'],
            },
          ],
          // An Argo CD health script, as argocd-cm holds it.
          argocd: {
            data: {
              'resource.customizations.health.apps_ReplicaSet': [
                'hs = { status = "Suspended" }',
                'hs.message = "Held by Lua: " .. obj.metadata.name',
                'return hs',
              ].join('\n'),
            },
          },
        },
      },
      features: [kustomizationRulesModule],
    });
    const res = await request(server).get(
      '/api/gitlab-env/entity/default/component/checkout-api/environments/production/resources',
    );
    expect(res.status).toBe(200);
    const body = res.body as EnvironmentResourcesResponse;
    const kustomization = body.graph.nodes.find(
      n => n.kind === 'Kustomization' && !n.missing,
    );
    expect(kustomization?.health).toEqual({
      status: 'Suspended',
      message: `Frozen by the platform team: ${kustomization?.name}`,
      origin: 'adopter',
    });
    const services = body.graph.nodes.filter(n => n.kind === 'Service');
    expect(services.length).toBeGreaterThan(0);
    for (const service of services) {
      expect(service.health).toEqual({
        status: 'Degraded',
        message: service.name,
        origin: 'adopter',
      });
    }
    const replicaSets = body.graph.nodes.filter(n => n.kind === 'ReplicaSet');
    expect(replicaSets.length).toBeGreaterThan(0);
    for (const replicaSet of replicaSets) {
      expect(replicaSet.health).toEqual({
        status: 'Suspended',
        message: `Held by Lua: ${replicaSet.name}`,
        origin: 'adopter',
      });
    }
    // Built-in rules still assess the kinds no adopter rule names.
    const deployment = body.graph.nodes.find(n => n.kind === 'Deployment');
    expect(deployment?.health?.origin).toBeUndefined();
  });

  it('refuses to start on an invalid app-config rule, naming the key', async () => {
    await expect(
      startBackendOnSimulator(simulator, {
        entities,
        gitlabEnv: {
          health: {
            rules: [
              {
                group: 'x.io',
                kind: 'Thing',
                healthy: [{ conditon: 'Ready' }],
              },
            ],
          },
        },
      }),
    ).rejects.toThrow(
      "gitlabEnv.health.rules[0].healthy[0] needs exactly one of 'condition' or 'field'",
    );
  });
});
