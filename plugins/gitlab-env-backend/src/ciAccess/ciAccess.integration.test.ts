import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  CiAccessMatrixResponse,
  gitlabEnvNamespaceDeletePermission,
  StaleNamespacesResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';
import { AuditRecord, recordAuditEvents } from '../__testUtils__/auditRecords';
import {
  aliasBomb,
  HOSTILE_CI_ACCESS,
  HOSTILE_NAME,
  HOSTILE_WILDCARD,
  hostileBranch,
  hugeAgentConfig,
} from '../__testUtils__/hostileValues';
import { MAX_FILE_BYTES } from '../transport/gitlabRest';

function component(name: string, slug: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name,
      namespace: 'default',
      annotations: {
        'gitlab.com/project-slug': slug,
        // Registered from its project's repository: its claim is verified.
        'backstage.io/managed-by-location': `url:https://gitlab.example.com/${slug}/-/blob/main/catalog-info.yaml`,
      },
    },
    spec: { type: 'service', owner: 'team', lifecycle: 'production' },
  };
}

const entities = [
  component('storefront', 'acme/shop/storefront'),
  component('checkout-api', 'acme/shop/checkout-api'),
  component('notifications', 'acme/platform/notifications'),
  component('search-indexer', 'acme/platform/search-indexer'),
  {
    ...component('notifications-core', 'acme/platform/notifications'),
    metadata: {
      name: 'notifications-core',
      namespace: 'default',
      annotations: {
        'gitlab.com/project-slug': 'acme/platform/notifications',
        'gitlab-env/environments': 'production, staging, development',
      },
    },
  },
];

function cell(
  body: CiAccessMatrixResponse,
  environment: string,
  agent: string,
) {
  const agentId = body.agents.find(a => a.name === agent)?.id;
  return body.cells.find(
    c => c.environment === environment && c.agentId === agentId,
  );
}

describe('CI access and namespaces against the simulator', () => {
  let simulator: RunningSimulator;
  let server: any;
  const auditor = mockServices.auditor.mock();
  const events: AuditRecord[] = [];
  const permissions = mockServices.permissions.mock();
  let denyDelete = false;

  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      kasTunnels: TEST_KAS_TUNNELS,
    });
    recordAuditEvents(auditor, events);
    permissions.authorize.mockImplementation(
      async requests =>
        requests.map(r => ({
          result:
            denyDelete &&
            r.permission.name === gitlabEnvNamespaceDeletePermission.name
              ? AuthorizeResult.DENY
              : AuthorizeResult.ALLOW,
        })) as any,
    );
    const backend = await startBackendOnSimulator(simulator, {
      entities,
      gitlabEnv: { requestTimeoutMs: 5000, cacheTtlSeconds: 0.001 },
      features: [auditor.factory, permissions.factory],
    });
    server = backend.server;
  });

  afterAll(async () => {
    await simulator.close();
  });

  const api = (path: string) => `/api/gitlab-env${path}`;
  const matrixOf = async (entity: string, query = '') =>
    (
      await request(server)
        .get(api(`/entity/default/component/${entity}/ci-access${query}`))
        .expect(200)
    ).body as CiAccessMatrixResponse;

  it('reads each agent configuration through the repository files API at the default branch', async () => {
    simulator.resetStats();
    const body = await matrixOf('storefront');
    expect(body.project).toEqual({
      id: '101',
      fullPath: 'acme/shop/storefront',
      defaultBranch: 'main',
    });
    expect(body.agents.map(a => [a.name, a.configFile, a.error])).toEqual([
      [
        'nonprod',
        'acme/infra: .gitlab/agents/nonprod/config.yaml@main',
        undefined,
      ],
      [
        'prod-eu',
        'acme/infra: .gitlab/agents/prod-eu/config.yaml@main',
        undefined,
      ],
      [
        'prod-us',
        'acme/infra: .gitlab/agents/prod-us/config.yaml@main',
        undefined,
      ],
    ]);
    const paths = Object.keys(simulator.stats().byPath);
    expect(paths).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          '/repository/files/.gitlab%2Fagents%2Fnonprod%2Fconfig.yaml',
        ),
      ]),
    );
  });

  it('answers per environment and agent with the entry, rule and namespace (review apps share one)', async () => {
    const body = await matrixOf('storefront');
    expect(
      cell(body, 'review/feature-cart', 'nonprod')?.decision,
    ).toMatchObject({
      authorized: true,
      entry: { scope: 'groups', id: 'acme' },
      ruleIndex: 0,
      namespace: { source: 'rule', final: 'storefront-review' },
    });
    expect(cell(body, 'staging', 'nonprod')?.decision).toMatchObject({
      authorized: true,
      ruleIndex: 1,
      namespace: { final: 'storefront-staging' },
    });
    // prod-eu: one namespace for all environments; prod-us: production only.
    expect(cell(body, 'staging', 'prod-eu')?.decision.namespace?.final).toBe(
      'storefront',
    );
    expect(cell(body, 'staging', 'prod-us')?.decision).toMatchObject({
      authorized: false,
      denial: 'environment_not_allowed',
    });
    expect(
      cell(body, 'production/us-region', 'prod-us')?.variables,
    ).toMatchObject({
      CI_ENVIRONMENT_NAME: 'production/us-region',
      CI_ENVIRONMENT_TIER: 'production',
      CI_PROJECT_ID: '101',
      CI_PROJECT_NAMESPACE: 'acme/shop',
      CI_COMMIT_REF_NAME: 'main',
      CI_DEFAULT_BRANCH: 'main',
      CI_COMMIT_REF_PROTECTED: 'true',
    });
  });

  it('evaluates for the branch the user picks (when: never for unprotected branches)', async () => {
    const body = await matrixOf('storefront', '?branch=feature%2Fx');
    expect(body.branch).toBe('feature/x');
    expect(
      cell(body, 'production/us-region', 'prod-us')?.decision,
    ).toMatchObject({
      authorized: false,
      denial: 'when_never',
      ruleIndex: 0,
    });
    const bad = await request(server)
      .get(api('/entity/default/component/storefront/ci-access?branch=a..b'))
      .expect(400);
    expect(bad.body.gitlabEnv.code).toBe('INVALID_BRANCH');
  });

  it('attributes managed-resource namespaces to their environment and lists only stale ones', async () => {
    const matrix = await matrixOf('notifications');
    expect(cell(matrix, 'review/push-v2', 'nonprod')?.decision).toMatchObject({
      authorized: true,
      entry: { scope: 'projects', id: 'acme/platform/notifications' },
      namespace: {
        source: 'managed_resources',
        final: 'review-push-v2-c9p9nq-103-3',
      },
    });
    const res = await request(server)
      .get(
        api(
          '/entity/default/component/notifications/ci-access/stale-namespaces',
        ),
      )
      .expect(200);
    const body = res.body as StaleNamespacesResponse;
    const names = body.namespaces.map(n => n.name);
    expect(names).toContain('review-push-v1-gb4nik-103-3');
    expect(names).not.toContain('review-push-v2-c9p9nq-103-3');
    expect(
      body.namespaces.find(n => n.name === 'review-push-v1-gb4nik-103-3'),
    ).toMatchObject({
      creator: 'gitlab_managed_resources',
      gitlabDeletes: true,
      deleteResources: 'on_stop',
      reasons: [
        {
          producedBy: 'label',
          environment: 'review-push-v1-gb4nik',
          environmentState: 'deleted',
        },
      ],
      contents: { counts: { Deployment: 1 }, runningWorkloads: 1 },
      kubectl: 'kubectl delete namespace review-push-v1-gb4nik-103-3',
    });
  });

  it('keeps the namespace of an environment the entity filters out attributed, not stale', async () => {
    const body = (
      await request(server)
        .get(
          api(
            '/entity/default/component/notifications-core/ci-access/stale-namespaces',
          ),
        )
        .expect(200)
    ).body as StaleNamespacesResponse;
    const names = body.namespaces.map(n => n.name);
    expect(names).toContain('review-push-v1-gb4nik-103-3');
    expect(names).not.toContain('review-push-v2-c9p9nq-103-3');
  });

  it('names an agent that never connected as the environment reads do, not as unshared', async () => {
    const body = (
      await request(server)
        .get(
          api(
            '/entity/default/component/search-indexer/ci-access/stale-namespaces',
          ),
        )
        .expect(200)
    ).body as StaleNamespacesResponse;
    const lab = body.errors.find(e => e.agent === 'lab');
    expect(lab?.error.code).toBe('AGENT_NEVER_CONNECTED');
    expect(lab?.error.message).toMatch(/has never connected/);
  });

  it('finds namespaces of stopped environments from rules and environment settings, with their creator', async () => {
    const storefront = (
      await request(server)
        .get(
          api(
            '/entity/default/component/storefront/ci-access/stale-namespaces',
          ),
        )
        .expect(200)
    ).body as StaleNamespacesResponse;
    const old = storefront.namespaces.find(
      n => n.name === 'storefront-review-old-checkout',
    );
    expect(old).toMatchObject({
      creator: 'kubectl',
      gitlabDeletes: false,
      reasons: [
        {
          producedBy: 'environment_namespace',
          environment: 'review/old-checkout',
          environmentState: 'stopped',
        },
      ],
    });
    // The review namespace the rule gives is shared with an available review app: not stale.
    expect(storefront.namespaces.map(n => n.name)).not.toContain(
      'storefront-review',
    );
    const checkout = (
      await request(server)
        .get(
          api(
            '/entity/default/component/checkout-api/ci-access/stale-namespaces',
          ),
        )
        .expect(200)
    ).body as StaleNamespacesResponse;
    expect(
      checkout.namespaces.find(n => n.name === 'checkout-api-review'),
    ).toMatchObject({
      creator: 'flux',
      reasons: [
        {
          producedBy: 'rule',
          environment: 'review/legacy-pay',
          environmentState: 'stopped',
        },
      ],
      contents: {
        counts: { Deployment: 1, Service: 1, ConfigMap: 1, Pod: 2 },
        runningPods: 2,
      },
    });
  });

  it('never offers system namespaces or an entry default_namespace, even for a stopped environment', async () => {
    const storefront = simulator.scenario.projects.find(
      p => p.fullPath === 'acme/shop/storefront',
    )!;
    const template = storefront.environments.find(
      e => e.name === 'review/old-checkout',
    )!;
    storefront.environments.push(
      {
        ...template,
        id: 9901,
        name: 'review/uses-flux-system',
        agent: 'nonprod',
        kubernetesNamespace: 'flux-system',
      },
      {
        ...template,
        id: 9902,
        name: 'review/uses-search',
        agent: 'prod-us',
        kubernetesNamespace: 'search',
      },
    );
    try {
      const body = (
        await request(server)
          .get(
            api(
              '/entity/default/component/storefront/ci-access/stale-namespaces',
            ),
          )
          .expect(200)
      ).body as StaleNamespacesResponse;
      const names = body.namespaces.map(n => n.name);
      expect(names).toContain('storefront-review-old-checkout');
      expect(names).not.toContain('flux-system');
      expect(names).not.toContain('search');
    } finally {
      storefront.environments.splice(-2, 2);
    }
  });

  it('refuses to delete a namespace it did not list as stale, before reaching KAS, and audits the refusal', async () => {
    simulator.resetStats();
    const res = await request(server).delete(
      api(
        '/entity/default/component/storefront/ci-access/agents/3/namespaces/storefront-staging',
      ),
    );
    expect(res.status).toBe(409);
    expect(res.body.gitlabEnv.code).toBe('NAMESPACE_NOT_STALE');
    const deletes = Object.keys(simulator.stats().byPath).filter(p =>
      p.includes('DELETE'),
    );
    expect(deletes).toEqual([]);
    // Decided from the namespace list: nothing read inside any namespace.
    const kasReads = Object.entries(simulator.stats().byPath).filter(
      ([p]) => p.includes('/k8s-proxy/') && p.includes('/namespaces/'),
    );
    expect(kasReads).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      options: {
        eventId: 'stale-namespace-delete',
        meta: { object: { name: 'storefront-staging' } },
      },
      outcome: 'failure',
      meta: { code: 'NAMESPACE_NOT_STALE' },
    });
  });

  it('needs its own permission to delete', async () => {
    denyDelete = true;
    try {
      const res = await request(server).delete(
        api(
          '/entity/default/component/storefront/ci-access/agents/3/namespaces/storefront-review-old-checkout',
        ),
      );
      expect(res.status).toBe(403);
      expect(res.body.gitlabEnv.message).toContain(
        'gitlab-env.namespaces.delete',
      );
    } finally {
      denyDelete = false;
    }
  });

  it('deletes a stale namespace once through KAS and audits actor, object and upstream status', async () => {
    simulator.resetStats();
    const res = await request(server)
      .delete(
        api(
          '/entity/default/component/storefront/ci-access/agents/3/namespaces/storefront-review-old-checkout',
        ),
      )
      .expect(200);
    expect(res.body).toEqual({
      name: 'storefront-review-old-checkout',
      agentId: '3',
      phase: 'Terminating',
      upstreamStatus: 200,
    });
    expect(
      Object.entries(simulator.stats().byPath).filter(([key]) =>
        key.startsWith('DELETE '),
      ),
    ).toEqual([
      [
        'DELETE /-/kubernetes-agent/k8s-proxy/api/v1/namespaces/storefront-review-old-checkout',
        1,
      ],
    ]);
    // The auditor reads the actor from the request's credentials.
    expect(events.at(-1)?.options.request).toBeDefined();
    expect(events.at(-1)).toMatchObject({
      options: {
        severityLevel: 'high',
        meta: {
          action: 'delete',
          entityRef: 'component:default/storefront',
          object: { kind: 'Namespace', agentId: '3' },
        },
      },
      outcome: 'success',
      meta: { upstreamStatus: 200 },
    });
    const after = (
      await request(server)
        .get(
          api(
            '/entity/default/component/storefront/ci-access/stale-namespaces',
          ),
        )
        .expect(200)
    ).body as StaleNamespacesResponse;
    expect(after.namespaces.map(n => n.name)).not.toContain(
      'storefront-review-old-checkout',
    );
  });

  it('lists stale namespaces portal-wide, biggest first', async () => {
    const body = (
      await request(server).get(api('/ci-access/stale-namespaces')).expect(200)
    ).body as StaleNamespacesResponse;
    const sizes = body.namespaces.map(n => n.contents.total);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(body.namespaces.map(n => n.name)).toEqual(
      expect.arrayContaining([
        'checkout-api-review',
        'review-push-v1-gb4nik-103-3',
      ]),
    );
  });

  describe('configuration files that are missing or invalid', () => {
    const infra = () =>
      simulator.scenario.projects.find(p => p.fullPath === 'acme/infra')!;
    let saved: Record<string, string>;
    beforeEach(() => {
      saved = { ...infra().files };
    });
    afterEach(() => {
      infra().files = saved;
    });

    it('reports a missing file as AGENT_CONFIG_MISSING and keeps the other agents', async () => {
      delete infra().files['.gitlab/agents/prod-eu/config.yaml'];
      const body = await matrixOf('storefront');
      expect(body.agents.find(a => a.name === 'prod-eu')?.error).toMatchObject({
        code: 'AGENT_CONFIG_MISSING',
        file: 'acme/infra: .gitlab/agents/prod-eu/config.yaml@main',
      });
      expect(cell(body, 'staging', 'nonprod')?.decision.authorized).toBe(true);
    });

    it('reports invalid YAML and invalid values as AGENT_CONFIG_INVALID with the line', async () => {
      infra().files['.gitlab/agents/prod-eu/config.yaml'] =
        'ci_access:\n  projects:\n    - id: [\n';
      let body = await matrixOf('storefront');
      expect(body.agents.find(a => a.name === 'prod-eu')?.error).toMatchObject({
        code: 'AGENT_CONFIG_INVALID',
        line: expect.any(Number),
      });
      infra().files['.gitlab/agents/prod-eu/config.yaml'] =
        'ci_access:\n  projects:\n    - id: acme/shop/storefront\n      rules:\n        - namespace: x\n          when: always\n';
      body = await matrixOf('storefront');
      const error = body.agents.find(a => a.name === 'prod-eu')?.error;
      expect(error).toMatchObject({ code: 'AGENT_CONFIG_INVALID', line: 6 });
      expect(error?.message).toContain(
        'line 6: ci_access.projects[0].rules[0].when must be "never"',
      );
    });

    it('refuses a huge configuration file from its declared size, having read next to none of it (finding 5)', async () => {
      const huge = hugeAgentConfig(26_700_000);
      infra().files['.gitlab/agents/prod-eu/config.yaml'] = huge;
      simulator.resetStats();
      const body = await matrixOf('storefront');
      const error = body.agents.find(a => a.name === 'prod-eu')?.error;
      expect(error).toMatchObject({
        code: 'AGENT_CONFIG_INVALID',
        file: 'acme/infra: .gitlab/agents/prod-eu/config.yaml',
      });
      expect(error?.message).toContain(
        `has ${huge.length} bytes; at most ${MAX_FILE_BYTES} are read`,
      );
      // What the simulator wrote before the backend hung up: what the
      // socket buffers took (Linux: up to tcp_wmem's 4 MiB on loopback),
      // not the file. The backend itself read none of the body
      // (gitlabRest.test.ts counts that).
      const written = simulator.stats().repositoryFileBytes;
      expect(written).toBeLessThan(huge.length / 4);
      expect(cell(body, 'staging', 'nonprod')?.decision.authorized).toBe(true);
    });

    it('refuses a YAML alias bomb as AGENT_CONFIG_INVALID, not as an upstream error (finding 6)', async () => {
      infra().files['.gitlab/agents/prod-eu/config.yaml'] = aliasBomb();
      const body = await matrixOf('storefront');
      const error = body.agents.find(a => a.name === 'prod-eu')?.error;
      expect(error).toMatchObject({
        code: 'AGENT_CONFIG_INVALID',
        file: 'acme/infra: .gitlab/agents/prod-eu/config.yaml@main',
      });
      expect(error?.message).toContain('alias bomb');
    });
  });

  describe('hostile patterns (finding 1)', () => {
    const infra = () =>
      simulator.scenario.projects.find(p => p.fullPath === 'acme/infra')!;
    const storefront = () =>
      simulator.scenario.projects.find(
        p => p.fullPath === 'acme/shop/storefront',
      )!;
    const CONFIG = '.gitlab/agents/prod-eu/config.yaml';
    let saved: { files: Record<string, string>; protected?: string[] };
    beforeEach(() => {
      saved = {
        files: { ...infra().files },
        protected: storefront().protectedBranches,
      };
      infra().files[CONFIG] = HOSTILE_CI_ACCESS;
      storefront().protectedBranches = ['main', HOSTILE_WILDCARD];
    });
    afterEach(() => {
      infra().files = saved.files;
      storefront().protectedBranches = saved.protected;
    });

    it.each([
      [hostileBranch(36), false, undefined],
      [hostileBranch(255), false, undefined],
      [`feature/${'a'.repeat(240)}`, true, 'storefront-features'],
      [`${HOSTILE_NAME.slice(1)}b`, true, 'storefront-protected'],
    ])(
      'answers branch %#  (%i chars) correctly',
      async (branch, authorized, namespace) => {
        const body = await matrixOf(
          'storefront',
          `?branch=${encodeURIComponent(branch)}`,
        );
        expect(cell(body, 'staging', 'prod-eu')?.decision).toMatchObject({
          authorized,
          ...(namespace ? { namespace: { final: namespace } } : {}),
        });
      },
    );

    it('refuses a branch longer than GitLab allows with INVALID_BRANCH', async () => {
      const response = await request(server)
        .get(
          api(
            `/entity/default/component/storefront/ci-access?branch=${'a'.repeat(
              256,
            )}`,
          ),
        )
        .expect(400);
      expect(response.body.gitlabEnv).toMatchObject({ code: 'INVALID_BRANCH' });
    });
  });
});
