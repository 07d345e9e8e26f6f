import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
  LiveMessage,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { openLiveStream } from './__testUtils__/liveStream';
import {
  gitlabEnvLocatorExtensionPoint,
  gitlabEnvObjectSourceExtensionPoint,
  gitlabEnvRelationsExtensionPoint,
} from './extensions';
import { GitlabEnvClusterSource } from './reading';

/** Maps entities by an annotation of the adopter's own, through the default locator. */
const ownAnnotationLocator = createBackendModule({
  pluginId: 'gitlab-env',
  moduleId: 'own-annotation-locator',
  register(env) {
    env.registerInit({
      deps: { locator: gitlabEnvLocatorExtensionPoint },
      async init({ locator }) {
        locator.setLocator(defaultLocator => ({
          locate: (entity, options) =>
            defaultLocator.locate(
              {
                ...entity,
                metadata: {
                  ...entity.metadata,
                  annotations: {
                    'gitlab.com/project-slug':
                      entity.metadata.annotations?.['example.com/project'] ??
                      '',
                  },
                },
              },
              options,
            ),
        }));
      },
    });
  },
});

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'storefront-staging',
    uid: `uid-${name}`,
    resourceVersion: '1',
  },
  status: { phase: 'Running' },
});

/** Serves the nonprod agent's cluster from memory instead of KAS. */
function memorySource(pods: unknown[]): GitlabEnvClusterSource {
  const kind = (k: string, plural: string) => ({
    group: '',
    version: 'v1',
    plural,
    kind: k,
    label: k,
    basePath: '/api/v1',
  });
  return {
    serves: ({ agent }) => agent.name === 'nonprod',
    kinds: async () => [kind('Pod', 'pods'), kind('Secret', 'secrets')],
    list: async (_target, k) =>
      k.kind === 'Pod'
        ? pods
        : [
            {
              apiVersion: 'v1',
              kind: 'Secret',
              metadata: {
                name: 'db',
                namespace: 'storefront-staging',
                uid: 'uid-db',
              },
              data: { password: 'c2VjcmV0' },
            },
          ],
    get: async () => undefined,
  };
}

function sourceModule(source: GitlabEnvClusterSource) {
  return createBackendModule({
    pluginId: 'gitlab-env',
    moduleId: 'memory-cluster',
    register(env) {
      env.registerInit({
        deps: { sources: gitlabEnvObjectSourceExtensionPoint },
        async init({ sources }) {
          sources.addClusterSource(source);
        },
      });
    },
  });
}

/** An adopter's relation: their Pods read the `db` Secret of their namespace through a CSI driver. */
const csiSecretRelation = createBackendModule({
  pluginId: 'gitlab-env',
  moduleId: 'csi-secret-relation',
  register(env) {
    env.registerInit({
      deps: { relations: gitlabEnvRelationsExtensionPoint },
      async init({ relations }) {
        relations.addRelationSource({
          id: 'example.com/csi-db-secret',
          kinds: [{ kind: 'Pod', group: '' }],
          infer: context =>
            context.add(
              context.origin,
              context.byKindName('Secret', 'db'),
              'uses',
            ),
        });
      },
    });
  },
});

describe('extension points', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startTestSimulator();
  });
  afterAll(() => simulator.close());

  it('a module replaces the mapping from entities to GitLab projects', async () => {
    const backend = await startBackendOnSimulator(simulator, {
      entities: [
        component('shop', { 'example.com/project': 'acme/shop/storefront' }),
      ],
      features: [ownAnnotationLocator],
    });
    try {
      const res = await request(backend.server).get(
        '/api/gitlab-env/entity/default/component/shop/environments?withHealth=false',
      );
      expect(res.status).toBe(200);
      const body = res.body as EntityEnvironmentsResponse;
      expect(body.project.fullPath).toBe('acme/shop/storefront');
      expect(body.environments.map(e => e.name)).toContain('staging');
    } finally {
      await backend.stop();
    }
  });

  it('a module serves an agent’s cluster; its answers are validated and Secrets redacted, and live pages poll it', async () => {
    const pods = [pod('from-module'), { metadata: { name: 42 } }];
    const backend = await startBackendOnSimulator(simulator, {
      entities: [
        component('storefront', {
          'gitlab.com/project-slug': 'acme/shop/storefront',
        }),
      ],
      features: [sourceModule(memorySource(pods))],
      gitlabEnv: { live: { pollIntervalSeconds: 0.2 } },
    });
    try {
      const res = await request(backend.server).get(
        '/api/gitlab-env/entity/default/component/storefront/environments/staging/resources',
      );
      expect(res.status).toBe(200);
      const body = res.body as EnvironmentResourcesResponse;
      const names = body.resources.map(r => r.metadata?.name);
      expect(names).toEqual(expect.arrayContaining(['from-module', 'db']));
      expect(body.resources.find(r => r.kind === 'Secret')?.data).toEqual({
        password: '<redacted>',
      });
      // The item without a string name is left out with a warning, not shown.
      expect(body.errors.map(e => e.code)).toContain('UPSTREAM_MALFORMED');

      const { port } = backend.server.address() as AddressInfo;
      const stream = await openLiveStream(`http://127.0.0.1:${port}`, [
        'component:default/storefront/staging',
      ]);
      try {
        const status = (await stream.next(e => e.message.type === 'status'))
          .message as Extract<LiveMessage, { type: 'status' }>;
        expect(status.kinds.every(k => k.mode === 'poll')).toBe(true);
        expect(status.kinds[0].reason).toMatch(/backend module/);
        pods.push(pod('added-later'));
        await stream.next(
          e =>
            e.message.type === 'patch' &&
            e.message.patch.objectsUpserted.some(
              o => o.metadata?.name === 'added-later',
            ),
        );
      } finally {
        await stream.close();
      }
    } finally {
      await backend.stop();
    }
  });

  it('a module adds a relation: its edges are in the graph the backend serves, read and live', async () => {
    const backend = await startBackendOnSimulator(simulator, {
      entities: [
        component('storefront', {
          'gitlab.com/project-slug': 'acme/shop/storefront',
        }),
      ],
      features: [
        sourceModule(memorySource([pod('web-1'), pod('web-2')])),
        csiSecretRelation,
      ],
    });
    try {
      const res = await request(backend.server).get(
        '/api/gitlab-env/entity/default/component/storefront/environments/staging/resources',
      );
      expect(res.status).toBe(200);
      const uses = (body: EnvironmentResourcesResponse) =>
        body.graph.edges
          .filter(edge => edge.type === 'uses')
          .map(edge => `${edge.source} -> ${edge.target}`)
          .sort();
      const expected = [
        '/Pod/storefront-staging/web-1 -> /Secret/storefront-staging/db',
        '/Pod/storefront-staging/web-2 -> /Secret/storefront-staging/db',
      ];
      expect(uses(res.body)).toEqual(expected);

      const { port } = backend.server.address() as AddressInfo;
      const stream = await openLiveStream(`http://127.0.0.1:${port}`, [
        'component:default/storefront/staging',
      ]);
      try {
        const snapshot = (await stream.next(e => e.message.type === 'snapshot'))
          .message as Extract<LiveMessage, { type: 'snapshot' }>;
        expect(uses(snapshot.resources)).toEqual(expected);
      } finally {
        await stream.close();
      }
    } finally {
      await backend.stop();
    }
  });
});
