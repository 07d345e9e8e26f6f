import { startTestBackend } from '@backstage/backend-test-utils';
import {
  EntityEnvironmentsResponse,
  EnvironmentDesiredStateResponse,
  EnvironmentResourcesResponse,
  GitlabEnvErrorResponse,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  DEMO_TOKEN,
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  component,
  ownedComponent,
  storefrontComponent,
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from './__testUtils__/backendOnSimulator';

const entities = [
  storefrontComponent(),
  ownedComponent('checkout-api', 'acme/shop/checkout-api'),
  component('notifications', {
    'gitlab.com/project-slug': 'acme/platform/notifications',
    'gitlab-env/environments': 'production, staging, development, sandbox',
    'gitlab-env/label-selector': 'app.kubernetes.io/part-of=notifications',
  }),
  component('search-indexer', { 'gitlab.com/project-id': '104' }),
];

describe('gitlab-env backend against the GitLab simulator', () => {
  let simulator: RunningSimulator;
  let server: Awaited<ReturnType<typeof startTestBackend>>['server'];

  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      kasTunnels: TEST_KAS_TUNNELS,
    });
    const backend = await startBackendOnSimulator(simulator, {
      entities,
      gitlabEnv: { requestTimeoutMs: 5000 },
    });
    server = backend.server;
  });

  afterAll(async () => {
    await simulator.close();
  });

  beforeEach(() => simulator.setFaults({ forbiddenKinds: [] }));

  const get = (path: string) => request(server).get(`/api/gitlab-env${path}`);

  it('answers its health check without credentials', async () => {
    const res = await get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('lists the storefront environments with agents, namespaces and health', async () => {
    const res = await get(
      '/entity/default/component/storefront/environments?withHealth=true',
    );
    expect(res.status).toBe(200);
    const body = res.body as EntityEnvironmentsResponse;
    expect(body.project).toMatchObject({
      id: '101',
      fullPath: 'acme/shop/storefront',
    });
    const names = body.environments.map(e => e.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'production/us-region',
        'production/eu-region',
        'staging',
        'review/feature-cart',
      ]),
    );
    expect(names).not.toContain('review/old-checkout');
    const staging = body.environments.find(e => e.name === 'staging')!;
    expect(staging).toMatchObject({
      tier: 'staging',
      namespace: 'storefront-staging',
      agent: { id: '3', name: 'nonprod' },
    });
    expect(staging.health?.total).toBeGreaterThan(0);
  });

  it('lists stopped environments when asked', async () => {
    const res = await get(
      '/entity/default/component/storefront/environments?includeStopped=true&withHealth=false',
    );
    const names = (res.body as EntityEnvironmentsResponse).environments.map(
      e => e.name,
    );
    expect(names).toContain('review/old-checkout');
  });

  it('reads the resources, graph and health of a Flux-deployed environment', async () => {
    const res = await get(
      '/entity/default/component/checkout-api/environments/production/resources',
    );
    expect(res.status).toBe(200);
    const body = res.body as EnvironmentResourcesResponse;
    expect(body.scope).toEqual({ namespace: 'checkout' });
    const kinds = new Set(body.resources.map(r => r.kind));
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'Deployment',
        'ReplicaSet',
        'Pod',
        'Service',
        'Kustomization',
      ]),
    );
    // managedFields survive only as drift evidence: the hand edit of checkout-config.
    expect(
      body.resources
        .filter(r => r.metadata?.managedFields)
        .map(r => [r.metadata?.name, r.metadata?.managedFields]),
    ).toEqual([
      [
        'checkout-config',
        [expect.objectContaining({ manager: 'kubectl-edit' })],
      ],
    ]);
    expect(body.resources.every(r => r.apiVersion)).toBe(true);
    // Inventory entries at cluster scope and in other namespaces are read;
    // only the Deployment deleted by hand is Missing.
    expect(body.graph.nodes.filter(n => n.missing).map(n => n.id)).toEqual([
      'apps/Deployment/checkout/checkout-worker',
    ]);
    const missing = body.graph.nodes.find(n => n.missing);
    expect(missing?.health?.status).toBe('Missing');
    const managed = body.graph.edges
      .filter(
        e =>
          e.type === 'manages' &&
          e.source ===
            'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/checkout-api',
      )
      .map(e => e.target);
    expect(managed).toEqual(
      expect.arrayContaining([
        '/Namespace//checkout',
        'rbac.authorization.k8s.io/ClusterRole//checkout-api-reader',
        '/ConfigMap/flux-system/checkout-api-alerts',
      ]),
    );
    // The source chain and dependsOn are read and drawn.
    expect(body.graph.edges).toEqual(
      expect.arrayContaining([
        {
          source:
            'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/checkout-api',
          target:
            'source.toolkit.fluxcd.io/GitRepository/flux-system/checkout-api',
          type: 'sources',
        },
        {
          source:
            'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/checkout-api',
          target:
            'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/platform-infra',
          type: 'dependsOn',
        },
      ]),
    );
    expect(body.health.status).not.toBe('Healthy');
    expect(body.graph.edges.length).toBeGreaterThan(0);
  });

  it("compares the repository's manifests at the applied commit with the live objects, only at …/desired", async () => {
    const resources = await get(
      '/entity/default/component/checkout-api/environments/production/resources',
    );
    // One route, one shape: the resources answer carries no comparison.
    expect(resources.status).toBe(200);
    expect(Object.keys(resources.body)).not.toContain('desired');
    const res = await get(
      '/entity/default/component/checkout-api/environments/production/desired',
    );
    expect(res.status).toBe(200);
    const { desired } = res.body as EnvironmentDesiredStateResponse;
    expect(desired?.source).toEqual({
      project: 'acme/shop/checkout-api',
      ref: '5d6e7f8000000000000000000000000000000000',
      path: 'deploy/production',
    });
    expect(desired?.notRendered).toEqual([]);
    expect(
      desired?.objects.map(o => [o.id, o.state, o.changes.map(c => c.path)]),
    ).toEqual([
      ['/ConfigMap/checkout/checkout-config', 'differs', ['data.CURRENCY']],
      ['/Service/checkout/checkout-api', 'same', []],
      [
        'rbac.authorization.k8s.io/ClusterRole//checkout-api-reader',
        'same',
        [],
      ],
    ]);
    expect(desired?.objects[0].changes[0]).toMatchObject({
      change: 'changed',
      desired: 'USD',
      live: 'EUR',
    });
  });

  it('says plainly why a HelmRelease has no repository comparison', async () => {
    const res = await get(
      '/entity/default/component/storefront/environments/staging/resources',
    );
    const { desired } = (
      await get(
        '/entity/default/component/storefront/environments/staging/desired',
      )
    ).body as EnvironmentDesiredStateResponse;
    expect(desired?.unavailable).toMatch(
      /HelmRelease.*Helm values and templates are not compared/,
    );
    // helm-controller's drift warning, an Event in flux-system, is read with it.
    const body = res.body as EnvironmentResourcesResponse;
    const drift = body.resources.find(
      r => r.kind === 'Event' && (r as any).reason === 'DriftDetected',
    );
    expect((drift as any)?.message).toContain(
      'Deployment/storefront-staging/storefront-web changed',
    );
    // The source chain: HelmRelease → HelmChart → HelmRepository.
    expect(
      body.graph.edges
        .filter(e => e.type === 'sources')
        .map(e => `${e.source} -> ${e.target}`),
    ).toEqual([
      'helm.toolkit.fluxcd.io/HelmRelease/flux-system/storefront-staging -> source.toolkit.fluxcd.io/HelmChart/flux-system/flux-system-storefront-staging',
      'source.toolkit.fluxcd.io/HelmChart/flux-system/flux-system-storefront-staging -> source.toolkit.fluxcd.io/HelmRepository/flux-system/acme-charts',
    ]);
    // The read carries the state's drift as the backend computed it.
    expect(
      body.drift?.['apps/Deployment/storefront-staging/storefront-web']
        ?.signals,
    ).toEqual([
      expect.objectContaining({
        signal: 'fluxEvent',
        detail: 'changed (0 additions, 1 changes, 0 removals)',
      }),
    ]);
  });

  it('maps an environment GitLab gives no namespace through the GitLabDeployment objects of its agent, and says so', async () => {
    const res = await get(
      '/entity/default/component/search-indexer/environments/staging/resources',
    );
    expect(res.status).toBe(200);
    const body = res.body as EnvironmentResourcesResponse;
    expect(body.scope.namespace).toBe('search-staging');
    expect(body.environment.namespaceSource).toMatchObject({
      source: 'gitlabDeployment',
      name: 'search-indexer-staging',
      kubectl:
        'kubectl get gitlabdeployments.gitlab.com search-indexer-staging -o yaml',
      status: 'Ready=True: namespace search-staging exists',
      serves: ['acme/platform/search-indexer'],
    });
    expect(body.resources.length).toBeGreaterThan(0);
    const list = await get(
      '/entity/default/component/checkout-api/environments?withHealth=true',
    );
    const production = (
      list.body as EntityEnvironmentsResponse
    ).environments.find(e => e.name === 'production');
    expect(production?.namespaceSource).toEqual({ source: 'gitlab' });
    // The card's drift count: checkout-config, edited with kubectl.
    expect(production?.driftedCount).toBe(1);
  });

  it('maps an environment by the workloads carrying its GitLab annotations (deploy boards), and narrows the namespace it shares', async () => {
    const res = await get(
      '/entity/default/component/search-indexer/environments/load-test/resources',
    );
    expect(res.status).toBe(200);
    const body = res.body as EnvironmentResourcesResponse;
    expect(body.scope.namespace).toBe('search-staging');
    expect(body.environment.namespaceSource).toMatchObject({
      source: 'label',
      name: 'Deployment/search-loadgen',
      kubectl: expect.stringContaining(
        'kubectl get deployments,statefulsets,daemonsets -n search-staging',
      ),
      narrowing: { by: 'label', sharedWith: ['environment staging'] },
    });
    const names = (objects: KubernetesObject[], kind: string) =>
      objects
        .filter(o => o.kind === kind)
        .map(o => o.metadata?.name)
        .sort();
    // Its own Deployment and what it owns; nothing Flux applied for staging.
    expect(names(body.resources, 'Deployment')).toEqual(['search-loadgen']);
    expect(names(body.resources, 'StatefulSet')).toEqual([]);
    // The claim of staging's StatefulSet has no ownerReference: the
    // engine's relations (volumeClaimTemplates) tell whose it is.
    expect(names(body.resources, 'PersistentVolumeClaim')).toEqual([]);
    expect(
      body.resources
        .filter(o => o.kind === 'Pod')
        .every(o => o.metadata?.name?.startsWith('search-loadgen-')),
    ).toBe(true);
    expect(body.scope.narrowed).toMatchObject({
      by: 'label',
      hiddenOwners: ['Kustomization flux-system/search-indexer-staging'],
    });
    expect(body.scope.narrowed!.hidden).toBeGreaterThanOrEqual(2);

    const staging = (
      await get(
        '/entity/default/component/search-indexer/environments/staging/resources',
      )
    ).body as EnvironmentResourcesResponse;
    expect(names(staging.resources, 'Deployment')).toEqual(['search-api']);
    expect(names(staging.resources, 'StatefulSet')).toEqual(['search-indexer']);
    expect(staging.scope.narrowed).toMatchObject({
      by: 'inventory',
      sharedWith: ['environment load-test'],
      hiddenOwners: [
        'GitLab environment load-test of acme-platform-search-indexer',
      ],
    });
  });

  it('narrows reads with the entity label selector', async () => {
    const res = await get(
      '/entity/default/component/notifications/environments/development/resources',
    );
    expect(res.status).toBe(200);
    const body = res.body as EnvironmentResourcesResponse;
    expect(body.scope.labelSelector).toBe(
      'app.kubernetes.io/part-of=notifications',
    );
    const names = body.resources.map(r => r.metadata?.name ?? '');
    expect(names.some(n => n.startsWith('mailhog'))).toBe(false);
    expect(body.resources.length).toBeGreaterThan(0);
  });

  it.each([
    ['notifications', 'production', 403, 'AGENT_NOT_SHARED'],
    ['notifications', 'sandbox', 409, 'NO_AGENT'],
    ['notifications', 'staging', 409, 'AGENT_NOT_VISIBLE'],
    ['search-indexer', 'perf', 409, 'NO_NAMESPACE'],
    ['search-indexer', 'development', 503, 'AGENT_NOT_CONNECTED'],
    ['search-indexer', 'lab', 503, 'AGENT_NEVER_CONNECTED'],
    ['storefront', 'nope', 404, 'ENVIRONMENT_NOT_FOUND'],
  ])('%s/%s answers %i %s', async (entity, slug, status, code) => {
    const res = await get(
      `/entity/default/component/${entity}/environments/${slug}/resources`,
    );
    expect(res.status).toBe(status);
    const body = res.body as GitlabEnvErrorResponse;
    expect(body.gitlabEnv.code).toBe(code);
    expect(JSON.stringify(body)).not.toContain(DEMO_TOKEN);
  });

  it('names the agent and its config file when the agent is not shared', async () => {
    const res = await get(
      '/entity/default/component/notifications/environments/production/resources',
    );
    expect(res.body.gitlabEnv.message).toContain(
      '.gitlab/agents/restricted/config.yaml',
    );
    // The message names the cause, the hint what to do (main's ui-polish).
    expect(res.body.gitlabEnv.hint).toContain('user_access');
  });

  it('keeps the rest of the data when the cluster forbids one kind', async () => {
    simulator.setFaults({ forbiddenKinds: ['secrets'] });
    const res = await get(
      '/entity/default/component/search-indexer/environments/production/resources',
    );
    expect(res.status).toBe(200);
    const body = res.body as EnvironmentResourcesResponse;
    expect(body.errors).toEqual([
      expect.objectContaining({ code: 'KIND_FORBIDDEN', resource: 'Secret' }),
    ]);
    expect(body.resources.some(r => r.kind === 'StatefulSet')).toBe(true);
  });
});
