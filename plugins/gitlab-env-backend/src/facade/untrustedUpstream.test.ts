import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  GITLAB_URL,
  gitlabGraphql,
  item,
  KAS_URL,
  kasCluster,
} from '../__testUtils__/fakeGitlab';
import {
  appEntity,
  createTestService,
  failureOf,
  readProduction,
} from '../__testUtils__/serviceFixture';
import { GitlabEnvConfig } from '../config';
import { REDACTED_SECRET_VALUE } from '../reading/objects';

/**
 * Values from GitLab and answers from the cluster are untrusted: crafted
 * settings, hostile lists and flaky connections, at the network boundary.
 */
const server = setupServer();
registerMswTestHooks(server);

let kasPaths: string[];
beforeEach(() => {
  kasPaths = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.href.startsWith(KAS_URL))
      kasPaths.push(url.pathname.slice(new URL(KAS_URL).pathname.length));
  });
});
afterEach(() => server.events.removeAllListeners());

const limits = (
  overrides: Partial<GitlabEnvConfig['limits']>,
): GitlabEnvConfig['limits'] => ({
  maxPagesPerList: 100,
  maxObjectsPerEnvironment: 100,
  maxResponseBytes: 1e6,
  ...overrides,
});

const DISCOVERY = /^\/(api\/v1|apis|apis\/apps\/v1)$/;

/** Every KAS request was discovery or inside one of `namespaces`. */
function onlyPlannedPaths(namespaces: string[]) {
  const outside = kasPaths.filter(
    path =>
      !DISCOVERY.test(path) &&
      !namespaces.some(ns =>
        new RegExp(
          `^/apis?/([^/]+/)?v\\d+/namespaces/${ns}/[a-z]+(/[^/]+)?$`,
        ).test(path),
      ),
  );
  expect(outside).toEqual([]);
}

describe('values GitLab holds for an environment', () => {
  it.each([
    ['..'],
    ['../kube-system'],
    ['%2e%2e'],
    ['app/../kube-system'],
    ['KUBE-SYSTEM'],
  ])(
    'a namespace of %s is refused by name, and nothing is read from the cluster',
    async namespace => {
      server.use(
        gitlabGraphql({ environments: [{ name: 'production', namespace }] }),
        ...kasCluster({ items: { '/secrets': [item('db')] } }),
      );
      const { service } = createTestService();
      const detail = await failureOf(
        service.getEnvironmentResources(appEntity, 'production'),
      );
      expect(detail.code).toBe('INVALID_ENVIRONMENT_SETTING');
      expect(detail.message).toContain(
        `GitLab environment production has Kubernetes namespace \`${namespace}\`, which is not a valid Kubernetes name`,
      );
      const listed = await service.listEnvironments(appEntity);
      expect(listed.environments[0].errors).toEqual([
        expect.objectContaining({ code: 'INVALID_ENVIRONMENT_SETTING' }),
      ]);
      expect(kasPaths).toEqual([]);
    },
  );

  it.each([
    ['../../../../api/v1/secrets'],
    ['kustomize.toolkit.fluxcd.io/v1/namespaces/../../../api/v1/secrets'],
    ['kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/..'],
    [
      'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/a%2F..%2F..',
    ],
    ['../v1/namespaces/kube-system/secrets/x'],
  ])(
    'a Flux resource path of %s is a typed warning; the namespace is still read and nothing else',
    async fluxResourcePath => {
      server.use(
        gitlabGraphql({
          environments: [{ name: 'production', fluxResourcePath }],
        }),
        ...kasCluster({ items: { '/pods': [item('web')] } }),
      );
      const result = await readProduction();
      expect(result.resources.map(r => r.metadata?.name)).toEqual(['web']);
      expect(result.errors).toEqual([
        expect.objectContaining({
          code: 'INVALID_ENVIRONMENT_SETTING',
          message: expect.stringMatching(
            /^GitLab environment production (has Flux resource path|\(Flux resource path)/,
          ),
        }),
      ]);
      expect(result.health.partial?.reasons).toHaveLength(1);
      onlyPlannedPaths(['app']);
    },
  );

  it('an agent id that is not a number never reaches the Authorization header', async () => {
    server.use(
      gitlabGraphql({ environments: [{ name: 'production', agentId: '1:x' }] }),
      ...kasCluster(),
    );
    const { service } = createTestService();
    const detail = await failureOf(
      service.getEnvironmentResources(appEntity, 'production'),
    );
    expect(detail).toMatchObject({
      code: 'INVALID_ENVIRONMENT_SETTING',
      message: expect.stringContaining('agent id `1:x`'),
    });
    expect(kasPaths).toEqual([]);
  });
});

describe('Secrets, whatever the list says it is', () => {
  it('redacts Secrets that arrive in a `kind: List`, with their last-applied copy', async () => {
    server.use(gitlabGraphql(), ...kasCluster());
    server.use(
      http.get(`${KAS_URL}/api/v1/namespaces/app/secrets`, () =>
        HttpResponse.json({
          kind: 'List',
          apiVersion: 'v1',
          metadata: {},
          items: [
            {
              ...item('db', {
                annotations: {
                  'kubectl.kubernetes.io/last-applied-configuration':
                    '{"data":{"password":"aHVudGVyMg=="}}',
                },
              }),
              data: { password: 'aHVudGVyMg==' },
              stringData: { token: 'plain-secret' },
            },
          ],
        }),
      ),
    );
    const result = await readProduction();
    const body = JSON.stringify(result);
    expect(body).not.toMatch(/aHVudGVyMg|plain-secret/);
    expect(result.resources).toEqual([
      expect.objectContaining({
        apiVersion: 'v1',
        kind: 'Secret',
        data: { password: REDACTED_SECRET_VALUE },
      }),
    ]);
  });

  it('redacts an object that claims to be a Secret in any list, and Secrets embedded in objects', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        items: {
          '/pods': [
            {
              ...item('not-a-pod'),
              apiVersion: 'v1',
              kind: 'Secret',
              data: { key: 'c2VjcmV0' },
            },
            {
              ...item('carrier'),
              spec: {
                embedded: {
                  kind: 'List',
                  items: [
                    {
                      apiVersion: 'v1',
                      kind: 'Secret',
                      data: { k: 'c2VjcmV0' },
                    },
                  ],
                },
                event: {
                  type: 'ADDED',
                  object: {
                    apiVersion: 'v1',
                    kind: 'Secret',
                    stringData: { k: 'c2VjcmV0' },
                  },
                },
              },
            },
          ],
        },
      }),
    );
    const result = await readProduction();
    expect(result.resources).toHaveLength(2);
    expect(JSON.stringify(result)).not.toContain('c2VjcmV0');
  });
});

describe('bounded walks', () => {
  it('stops on a continue token it has already followed (A→B→A) and says so', async () => {
    let served = 0;
    server.use(gitlabGraphql(), ...kasCluster());
    server.use(
      http.get(`${KAS_URL}/api/v1/namespaces/app/pods`, ({ request }) => {
        served += 1;
        const token = new URL(request.url).searchParams.get('continue');
        return HttpResponse.json({
          kind: 'PodList',
          metadata: { continue: token === 'A' ? 'B' : 'A' },
          items: [item(`pod-${token ?? 'first'}`)],
        });
      }),
    );
    const result = await readProduction();
    expect(served).toBe(3);
    expect(result.resources.map(r => r.metadata?.name).sort()).toEqual([
      'pod-A',
      'pod-B',
      'pod-first',
    ]);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'UPSTREAM_MALFORMED',
        resource: 'Pod',
        message: expect.stringContaining('pagination loop'),
      }),
    ]);
    expect(result.health.partial).toBeDefined();
  });

  it('stops at maxPagesPerList and at maxObjectsPerEnvironment, saying how to narrow the read', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        pageSize: 2,
        items: {
          '/pods': Array.from({ length: 20 }, (_, i) => item(`pod-${i}`)),
        },
      }),
    );
    const byPages = await readProduction({
      limits: limits({ maxPagesPerList: 3 }),
    });
    expect(byPages.resources).toHaveLength(6);
    expect(byPages.errors).toEqual([
      expect.objectContaining({
        code: 'LIMIT_REACHED',
        message: expect.stringContaining('more than 3 pages'),
      }),
    ]);

    const byObjects = await readProduction({
      limits: limits({ maxObjectsPerEnvironment: 5 }),
    });
    expect(byObjects.resources).toHaveLength(5);
    expect(byObjects.errors).toEqual([
      expect.objectContaining({
        code: 'LIMIT_REACHED',
        message:
          'This environment has more than 5 objects; showing the first 5. Narrow it with the gitlab-env/label-selector annotation.',
      }),
    ]);
    expect(byObjects.health.partial).toBeDefined();
  });

  it('keeps a read cut at a limit for the TTL: reading again soon would meet the same limit', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        items: {
          '/pods': Array.from({ length: 20 }, (_, i) => item(`pod-${i}`)),
        },
      }),
    );
    const { service } = createTestService({
      limits: limits({ maxObjectsPerEnvironment: 5 }),
      transientCacheSeconds: 0.01,
    });
    const first = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    await new Promise(resolve => setTimeout(resolve, 30));
    kasPaths.length = 0;
    const again = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(again.fetchedAt).toBe(first.fetchedAt);
    expect(again.health.partial).toBeDefined();
    expect(kasPaths).toEqual([]);
  });

  it('refuses an answer larger than maxResponseBytes as that kind’s LIMIT_REACHED', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        items: {
          '/pods': Array.from({ length: 50 }, (_, i) =>
            item(`pod-${i}`, { labels: { filler: 'x'.repeat(60) } }),
          ),
          'apps/deployments': [item('web')],
        },
      }),
    );
    const result = await readProduction({
      limits: limits({ maxResponseBytes: 2000 }),
    });
    expect(result.resources.map(r => r.metadata?.name)).toEqual(['web']);
    expect(result.errors).toEqual([
      expect.objectContaining({ code: 'LIMIT_REACHED', resource: 'Pod' }),
    ]);
  });

  it('stops on a GraphQL endCursor it has already followed, listing each environment once', async () => {
    let served = 0;
    server.use(
      http.post(`${GITLAB_URL}/api/graphql`, async ({ request }) => {
        served += 1;
        const { variables } = (await request.json()) as any;
        return HttpResponse.json({
          data: {
            ...(variables.first
              ? {
                  metadata: {
                    kas: { enabled: true, externalK8sProxyUrl: KAS_URL },
                  },
                }
              : {}),
            project: {
              id: 'gid://gitlab/Project/7',
              fullPath: 'acme/app',
              environments: {
                pageInfo: {
                  hasNextPage: true,
                  endCursor: variables.after === 'A' ? 'B' : 'A',
                },
                nodes: [
                  {
                    id: `gid://gitlab/Environment/${
                      variables.after === 'A' ? 2 : 1
                    }`,
                    name: variables.after === 'A' ? 'staging' : 'production',
                  },
                ],
              },
            },
          },
        });
      }),
    );
    const { service } = createTestService();
    const listed = await service.listEnvironments(appEntity);
    expect(served).toBe(3);
    expect(listed.environments.map(e => e.name)).toEqual([
      'production',
      'staging',
    ]);
    expect(listed.errors).toEqual([
      expect.objectContaining({
        code: 'UPSTREAM_MALFORMED',
        message: expect.stringContaining('pagination loop'),
      }),
    ]);
  });

  it('stops reading when every caller has left', async () => {
    let started = 0;
    server.use(gitlabGraphql(), ...kasCluster());
    server.use(
      http.get(`${KAS_URL}/api/v1/namespaces/app/pods`, async () => {
        started += 1;
        await new Promise(resolve => setTimeout(resolve, 10_000));
        return HttpResponse.json({ kind: 'PodList', items: [] });
      }),
    );
    const { service } = createTestService({ requestTimeoutMs: 20_000 });
    const caller = new AbortController();
    const read = service.getEnvironmentResources(appEntity, 'production', {
      signal: caller.signal,
    });
    while (started === 0) await new Promise(r => setTimeout(r, 5));
    caller.abort();
    expect((await failureOf(read)).code).toBe('UPSTREAM_TIMEOUT');
    // A new caller starts a fresh read instead of joining the abandoned one.
    server.use(
      http.get(`${KAS_URL}/api/v1/namespaces/app/pods`, () =>
        HttpResponse.json({ kind: 'PodList', items: [item('web')] }),
      ),
    );
    const again = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(again.resources.map(r => r.metadata?.name)).toEqual(['web']);
  });

  it('ends a read that outlives requestDeadlineMs with UPSTREAM_TIMEOUT', async () => {
    server.use(gitlabGraphql(), ...kasCluster());
    server.use(
      http.get(`${KAS_URL}/api/v1/namespaces/app/pods`, async () => {
        await new Promise(resolve => setTimeout(resolve, 2_000));
        return HttpResponse.json({ kind: 'PodList', items: [] });
      }),
    );
    const { service } = createTestService({
      requestTimeoutMs: 5_000,
      requestDeadlineMs: 200,
    });
    const started = Date.now();
    const detail = await failureOf(
      service.getEnvironmentResources(appEntity, 'production'),
    );
    expect(detail.code).toBe('UPSTREAM_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('ends a read whose agent GitLab is slow to say is connected at requestDeadlineMs, while GitLab is still asked', async () => {
    server.use(gitlabGraphql(), ...kasCluster());
    /** GitLab's answers to the agent's connection query still awaited. */
    let open = 0;
    server.use(
      http.post(`${GITLAB_URL}/api/graphql`, async ({ request }) => {
        const { query } = (await request.clone().json()) as { query: string };
        if (!query.includes('query GitlabEnvAgentActivity(')) return undefined;
        open += 1;
        request.signal.addEventListener('abort', () => {
          open -= 1;
        });
        // Never answered: only the attempt's timeout ends it.
        return new Promise<never>(() => {});
      }),
    );
    // Located by another service, so this one's agent state is not seeded
    // from the listing and its read asks GitLab.
    const located = await createTestService().service.locate(appEntity);
    const { service } = createTestService({
      requestTimeoutMs: 1_500,
      requestDeadlineMs: 300,
    });
    const detail = await failureOf(
      service.getEnvironmentResources(appEntity, 'production', { located }),
    );
    expect(detail.code).toBe('UPSTREAM_TIMEOUT');
    expect(open).toBe(1);
  }, 15_000);
});

describe('flaky and malformed answers', () => {
  it('retries a GET whose connection was reset; the page has no error', async () => {
    let resets = 0;
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { '/pods': [item('web')] } }),
    );
    server.use(
      http.get(
        `${KAS_URL}/api/v1/namespaces/app/pods`,
        () => {
          resets += 1;
          return HttpResponse.error();
        },
        { once: true },
      ),
    );
    const result = await readProduction();
    expect(resets).toBe(1);
    expect(result.errors).toEqual([]);
    expect(result.resources.map(r => r.metadata?.name)).toEqual(['web']);
  });

  it('keeps a reset that outlasts the retries as that kind’s warning', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { 'apps/deployments': [item('web')] } }),
    );
    server.use(
      http.get(`${KAS_URL}/api/v1/namespaces/app/pods`, () =>
        HttpResponse.error(),
      ),
    );
    const result = await readProduction();
    expect(result.resources.map(r => r.metadata?.name)).toEqual(['web']);
    expect(result.errors).toEqual([
      expect.objectContaining({ code: 'KIND_FAILED', resource: 'Pod' }),
    ]);
    expect(result.health.partial?.reasons).toEqual([
      expect.stringContaining('Listing Pod failed'),
    ]);
  });

  it('names each malformed object in a warning and keeps the rest', async () => {
    // Built as text: JSON.stringify itself overflows on 10,000 levels.
    const deep = `${'{"x":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const items = [
      JSON.stringify(item('fine')),
      `{"metadata":{"name":"deep","namespace":"app","uid":"uid-deep"},"spec":${deep}}`,
      JSON.stringify({ metadata: { name: 42, namespace: 'app' } }),
      JSON.stringify(item('bad-labels', { labels: { a: { b: 1 } } })),
      JSON.stringify(item('twin-1', { uid: 'same' })),
      JSON.stringify(item('twin-2', { uid: 'same' })),
    ];
    server.use(gitlabGraphql(), ...kasCluster());
    server.use(
      http.get(
        `${KAS_URL}/api/v1/namespaces/app/pods`,
        () =>
          new HttpResponse(`{"kind":"PodList","items":[${items.join(',')}]}`, {
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const result = await readProduction();
    expect(result.resources.map(r => r.metadata?.name)).toEqual([
      'fine',
      'twin-1',
    ]);
    expect(result.errors.map(e => e.message)).toEqual([
      '2 objects share the uid same: v1 Pod app/twin-1, v1 Pod app/twin-2; only the first is shown.',
      'The cluster answered v1 Pod app/deep, which is left out: it nests deeper than 100 levels.',
      'The cluster answered v1 Pod app/?, which is left out: its metadata.name is not a string.',
      'The cluster answered v1 Pod app/bad-labels, which is left out: its metadata.labels are not strings.',
    ]);
    expect(new Set(result.errors.map(e => e.code))).toEqual(
      new Set(['UPSTREAM_MALFORMED']),
    );
  });

  it('turns a body that is not UTF-8 into that kind’s UPSTREAM_MALFORMED', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { 'apps/deployments': [item('web')] } }),
    );
    server.use(
      http.get(
        `${KAS_URL}/api/v1/namespaces/app/pods`,
        () =>
          new HttpResponse(
            Buffer.concat([
              Buffer.from('{"kind":"PodList","items":[{"metadata":{"name":"'),
              Buffer.from([0xff, 0xfe]),
              Buffer.from('"}}]}'),
            ]),
            { headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    const result = await readProduction();
    expect(result.resources.map(r => r.metadata?.name)).toEqual(['web']);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'UPSTREAM_MALFORMED',
        resource: 'Pod',
        message: expect.stringContaining('not valid UTF-8'),
      }),
    ]);
  });

  it('marks the environments list’s health partial when a kind is forbidden, with the reason', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        forbidden: ['pods'],
        items: { 'apps/deployments': [item('web')] },
      }),
    );
    const { service } = createTestService();
    const listed = await service.listEnvironments(appEntity, {
      withHealth: true,
    });
    const [production] = listed.environments;
    expect(production.health?.partial?.reasons).toEqual([
      expect.stringContaining('Pod'),
    ]);
    expect(production.errors).toEqual([
      expect.objectContaining({ code: 'KIND_FORBIDDEN', resource: 'Pod' }),
    ]);
  });
});
