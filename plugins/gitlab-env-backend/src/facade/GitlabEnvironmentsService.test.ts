import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  GITLAB_URL,
  gitlabGraphql,
  item,
  KAS_URL,
  kasCluster,
  TOKEN,
} from '../__testUtils__/fakeGitlab';
import {
  appEntity,
  createTestService,
  entityWith,
  failureOf,
} from '../__testUtils__/serviceFixture';
import { AgentAccess } from '../planning/AgentAccess';
import { LivePlanner } from '../planning/LivePlanner';
import { REDACTED_SECRET_VALUE } from '../reading/objects';

const server = setupServer();
registerMswTestHooks(server);

let requests: string[];
beforeEach(() => {
  requests = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
  });
});
afterEach(() => server.events.removeAllListeners());

const deployment = (name: string) =>
  item(name, {
    managedFields: [{ manager: 'kubectl' }],
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
      keep: 'me',
    },
  });

describe('GitlabEnvironmentsService.listEnvironments', () => {
  it('follows GraphQL pages and checks the instance once, over REST', async () => {
    const bodies: any[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.method === 'POST') bodies.push(await request.clone().json());
    });
    server.use(
      gitlabGraphql({
        pageSize: 2,
        environments: [
          { name: 'production' },
          { name: 'staging', tier: 'staging' },
          { name: 'review/a', tier: 'development' },
          { name: 'review/b', state: 'stopped' },
        ],
      }),
    );
    const { service } = createTestService();
    const result = await service.listEnvironments(appEntity);
    expect(result.environments.map(e => e.name)).toEqual([
      'production',
      'staging',
      'review/a',
    ]);
    expect(result.environments[2]).toMatchObject({
      folder: 'review',
      tier: 'development',
      agent: { id: '1', name: 'agent-1', configProject: 'acme/infra' },
    });
    expect(bodies.map(b => b.variables.after)).toEqual([undefined, '2']);
    expect(bodies.every(b => !b.query.includes('metadata'))).toBe(true);
    expect(requests.filter(r => r.startsWith('GET'))).toEqual([
      'GET /api/v4/personal_access_tokens/self',
      'GET /api/v4/metadata',
    ]);
    const withStopped = await service.listEnvironments(appEntity, {
      includeStopped: true,
    });
    expect(withStopped.environments).toHaveLength(4);
  });

  it('finds the project by id', async () => {
    server.use(gitlabGraphql());
    const { service } = createTestService();
    const result = await service.listEnvironments(
      entityWith({ 'gitlab.com/project-id': '7' }),
    );
    expect(result.project).toEqual({
      instance: 'gitlab.test',
      id: '7',
      fullPath: 'acme/app',
      webUrl: `${GITLAB_URL}/acme/app`,
    });
  });

  it('filters by the environment globs and tiers of the entity', async () => {
    server.use(
      gitlabGraphql({
        environments: [
          { name: 'production' },
          { name: 'production-eu' },
          { name: 'staging', tier: 'staging' },
        ],
      }),
    );
    const { service } = createTestService();
    const globbed = await service.listEnvironments(
      entityWith({
        'gitlab.com/project-slug': 'acme/app',
        'gitlab-env/environments': 'production*, staging',
        'gitlab-env/tiers': 'production',
      }),
    );
    expect(globbed.environments.map(e => e.name)).toEqual([
      'production',
      'production-eu',
    ]);
  });

  it('adds each environment health when asked', async () => {
    server.use(
      gitlabGraphql({
        environments: [{ name: 'production' }, { name: 'x', agentId: null }],
      }),
      ...kasCluster({ items: { '/pods': [item('p', {})] } }),
    );
    const { service } = createTestService();
    const result = await service.listEnvironments(appEntity, {
      withHealth: true,
    });
    expect(result.environments[0].health).toMatchObject({ total: 1 });
    expect(result.environments[1].health).toBeUndefined();
  });
});

describe('GitlabEnvironmentsService.readAhead', () => {
  it("gives each target's answer as its own read would, undefined for one without an agent", async () => {
    server.use(
      gitlabGraphql({
        environments: [{ name: 'production' }, { name: 'x', agentId: null }],
      }),
      ...kasCluster({ items: { '/pods': [item('p', {})] } }),
    );
    const { service } = createTestService();
    const listed = await service.listEnvironments(appEntity);
    requests.length = 0;
    const answers = await service.readAhead(
      listed.environments.map(environment => ({
        entity: appEntity,
        environment,
      })),
    );
    expect(answers).toHaveLength(2);
    expect(answers[1]).toBeUndefined();
    const ahead = await answers[0]!;
    const listedKinds = requests.length;
    expect(listedKinds).toBeGreaterThan(0);
    // The same read: answered from what the read-ahead listed.
    const own = await service.getEnvironmentResources(appEntity, 'production');
    expect(requests).toHaveLength(listedKinds);
    expect(ahead.health).toEqual(own.health);
    expect(ahead.resources.map(r => r.metadata?.name)).toEqual(['p']);
    expect(ahead.fetchedAt).toBe(own.fetchedAt);
  });

  it("ends the answers with the caller's signal", async () => {
    server.use(gitlabGraphql(), ...kasCluster());
    // Lists that never answer in time.
    server.use(
      http.get(`${KAS_URL}/*`, async ({ request }) => {
        if (!new URL(request.url).pathname.includes('/namespaces/'))
          return undefined;
        await delay(5_000);
        return HttpResponse.json({ items: [] });
      }),
    );
    const { service } = createTestService();
    const { environments } = await service.listEnvironments(appEntity);
    const left = new AbortController();
    const [answer] = await service.readAhead(
      [{ entity: appEntity, environment: environments[0] }],
      { signal: left.signal },
    );
    left.abort();
    await expect(answer).rejects.toBeDefined();
  });
});

describe('GitlabEnvironmentsService.gatherReads', () => {
  afterEach(() => jest.restoreAllMocks());

  it("closes each agent's gathering when its caller leaves without closing it", async () => {
    server.use(gitlabGraphql(), ...kasCluster());
    const closed = jest.fn();
    jest
      .spyOn(LivePlanner.prototype, 'gather')
      .mockImplementation(() => ({ close: closed }));
    const { service } = createTestService();
    const { environments } = await service.listEnvironments(appEntity);
    const left = new AbortController();
    const gathering = service.gatherReads({ signal: left.signal });
    await service.readAhead(
      [{ entity: appEntity, environment: environments[0] }],
      { signal: left.signal, gathering },
    );
    expect(LivePlanner.prototype.gather).toHaveBeenCalledTimes(1);
    expect(closed).not.toHaveBeenCalled();
    left.abort();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('gives a batch read after the first deadline has passed its own deadline', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { '/pods': [item('p', {})] } }),
    );
    const { service } = createTestService({ requestDeadlineMs: 300 });
    const { environments } = await service.listEnvironments(appEntity);
    const gathering = service.gatherReads();
    await delay(400);
    const [answer] = await service.readAhead(
      [{ entity: appEntity, environment: environments[0] }],
      { gathering },
    );
    expect((await answer!).resources.map(r => r.metadata?.name)).toEqual(['p']);
    gathering.close();
  });
});

describe('GitlabEnvironmentsService.getEnvironmentResources', () => {
  it('lists every listable namespaced kind, following continue tokens', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        pageSize: 2,
        items: {
          '/pods': [item('a'), item('b'), item('c')],
          'apps/deployments': [deployment('web')],
        },
      }),
    );
    const { service } = createTestService();
    const result = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(result.errors).toEqual([]);
    expect(
      result.resources
        .map(r => `${r.apiVersion} ${r.kind} ${r.metadata?.name}`)
        .sort(),
    ).toEqual(['apps/v1 Deployment web', 'v1 Pod a', 'v1 Pod b', 'v1 Pod c']);
    const web = result.resources.find(r => r.kind === 'Deployment')!;
    expect(web.metadata?.managedFields).toBeUndefined();
    expect(web.metadata?.annotations).toEqual({ keep: 'me' });
    expect(result.graph.nodes).toHaveLength(4);
    expect(result.scope).toEqual({ namespace: 'app' });
    expect(requests.filter(r => r.endsWith('/pods'))).toHaveLength(2);
    // Subresources, cluster-scoped kinds and events.k8s.io are not listed.
    expect(requests.some(r => r.includes('events.k8s.io'))).toBe(false);
    expect(requests.some(r => r.endsWith('/nodes'))).toBe(false);
  });

  it("makes an environment's read key once per read", async () => {
    // The overview reads a thousand environments at once: the key (a walk
    // of each one's settings) is made once for the held answer, the early
    // lists and the read.
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { '/pods': [item('a')] } }),
    );
    const { service } = createTestService();
    const readKey = jest.spyOn(AgentAccess.prototype, 'readKey');
    try {
      const result = await service.getEnvironmentResources(
        appEntity,
        'production',
      );
      expect(result.resources.map(r => r.metadata?.name)).toEqual(['a']);
      expect(readKey).toHaveBeenCalledTimes(1);
    } finally {
      readKey.mockRestore();
    }
  });

  it('sends Secrets with their keys but without their values', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        items: {
          '/secrets': [
            {
              ...item('db'),
              type: 'Opaque',
              data: { password: 'aHVudGVyMg==' },
            },
          ],
        },
      }),
    );
    const { service } = createTestService();
    const result = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(result.resources).toEqual([
      expect.objectContaining({
        kind: 'Secret',
        type: 'Opaque',
        data: { password: REDACTED_SECRET_VALUE },
      }),
    ]);
    expect(JSON.stringify(result)).not.toContain('aHVudGVyMg==');
  });

  it('discovers every group in one request when the API server aggregates discovery', async () => {
    server.use(
      gitlabGraphql(),
      http.get(`${KAS_URL}/apis`, ({ request }) =>
        request.headers.get('accept')?.includes('as=APIGroupDiscoveryList')
          ? HttpResponse.json({
              kind: 'APIGroupDiscoveryList',
              items: [
                {
                  metadata: { name: 'apps' },
                  versions: [
                    {
                      version: 'v1',
                      resources: [
                        {
                          resource: 'deployments',
                          responseKind: { kind: 'Deployment' },
                          scope: 'Namespaced',
                          verbs: ['list'],
                        },
                        {
                          resource: 'nodes',
                          responseKind: { kind: 'Node' },
                          scope: 'Cluster',
                          verbs: ['list'],
                        },
                      ],
                    },
                  ],
                },
              ],
            })
          : undefined,
      ),
      ...kasCluster({ items: { 'apps/deployments': [item('web')] } }),
    );
    const { service } = createTestService();
    const result = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(result.resources.map(r => `${r.kind}/${r.metadata?.name}`)).toEqual([
      'Deployment/web',
    ]);
    expect(requests).not.toContain(
      'GET /-/kubernetes-agent/k8s-proxy/apis/apps/v1',
    );
  });

  it('sends the label selector and reports NO_RESOURCES with it', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { '/pods': [item('a')] } }),
    );
    const { service } = createTestService();
    const result = await service.getEnvironmentResources(
      entityWith({
        'gitlab.com/project-slug': 'acme/app',
        'gitlab-env/label-selector': 'app=shop',
      }),
      'production',
    );
    expect(result.resources).toEqual([]);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'NO_RESOURCES',
        message:
          'Nothing was found in the namespace app with the label selector app=shop.',
      }),
    ]);
  });

  it('keeps the other kinds when RBAC forbids one (KIND_FORBIDDEN)', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({
        forbidden: ['secrets'],
        items: { '/pods': [item('a')] },
      }),
    );
    const { service } = createTestService();
    const result = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(result.resources.map(r => r.metadata?.name)).toEqual(['a']);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'KIND_FORBIDDEN',
        resource: 'Secret',
        upstreamStatus: 403,
      }),
    ]);
  });

  it('reads the Flux object and inventory objects outside the namespace', async () => {
    const kustomization = {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'app', namespace: 'flux-system', uid: 'k' },
      status: {
        inventory: {
          entries: [
            { id: 'app_web_apps_Deployment', v: 'v1' },
            { id: 'shared_db_apps_Deployment', v: 'v1' },
          ],
        },
      },
    };
    server.use(
      gitlabGraphql({
        environments: [
          {
            name: 'production',
            fluxResourcePath:
              'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app',
          },
        ],
      }),
      ...kasCluster({
        items: { 'apps/deployments': [item('web')] },
        extraObjects: {
          'flux-system/app': kustomization,
          'shared/db': {
            ...item('db'),
            metadata: { name: 'db', namespace: 'shared', uid: 'db' },
          },
        },
      }),
    );
    const { service } = createTestService();
    const result = await service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(
      result.resources.map(r => `${r.kind}/${r.metadata?.name}`).sort(),
    ).toEqual(['Deployment/db', 'Deployment/web', 'Kustomization/app']);
    expect(result.graph.edges.filter(e => e.type === 'manages')).toHaveLength(
      2,
    );
  });

  it('answers 50 concurrent reads with one round of upstream requests, then from cache', async () => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { '/pods': [item('a')] } }),
    );
    const single = createTestService().service;
    await single.getEnvironmentResources(appEntity, 'production');
    const oneLoad = requests.length;
    requests.length = 0;

    const { service } = createTestService();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        service.getEnvironmentResources(appEntity, 'production'),
      ),
    );
    expect(requests).toHaveLength(oneLoad);
    expect(new Set(results.map(r => r.fetchedAt)).size).toBe(1);
    requests.length = 0;
    await service.getEnvironmentResources(appEntity, 'production');
    await service.listEnvironments(appEntity, { withHealth: true });
    expect(requests).toEqual([]);
  });

  it('keeps a transient failure for transientCacheSeconds only', async () => {
    let fail = true;
    server.use(
      http.post(`${GITLAB_URL}/api/graphql`, () =>
        fail ? HttpResponse.json({}, { status: 401 }) : undefined,
      ),
      gitlabGraphql(),
    );
    const { service } = createTestService({ transientCacheSeconds: 0.05 });
    await expect(service.listEnvironments(appEntity)).rejects.toThrow();
    fail = false;
    await expect(service.listEnvironments(appEntity)).rejects.toThrow();
    await new Promise(resolve => setTimeout(resolve, 60));
    await expect(service.listEnvironments(appEntity)).resolves.toBeDefined();
  });
});

describe('typed failures', () => {
  const cases: Array<
    [
      string,
      () => void,
      Partial<Parameters<typeof createTestService>[0]>,
      string,
    ]
  > = [
    [
      'GITLAB_UNAUTHORIZED',
      () => server.use(gitlabGraphql()),
      {
        instances: [
          {
            host: 'gitlab.test',
            baseUrl: GITLAB_URL,
            apiBaseUrl: '',
            graphqlUrl: `${GITLAB_URL}/api/graphql`,
            token: 'wrong',
          },
        ],
      },
      'rejected the configured token',
    ],
    [
      'MISSING_TOKEN',
      () => server.use(gitlabGraphql()),
      {
        instances: [
          {
            host: 'gitlab.test',
            baseUrl: GITLAB_URL,
            apiBaseUrl: '',
            graphqlUrl: `${GITLAB_URL}/api/graphql`,
          },
        ],
      },
      'No token is configured for the GitLab instance gitlab.test',
    ],
    [
      'UPSTREAM_ERROR',
      () =>
        server.use(
          http.post(`${GITLAB_URL}/api/graphql`, () =>
            HttpResponse.json({ message: 'boom' }, { status: 500 }),
          ),
        ),
      {},
      'failed with HTTP 500',
    ],
    [
      'UPSTREAM_MALFORMED',
      () =>
        server.use(
          http.post(`${GITLAB_URL}/api/graphql`, () =>
            HttpResponse.text('{"data": {"proj'),
          ),
        ),
      {},
      'not GraphQL JSON',
    ],
    [
      'UPSTREAM_TIMEOUT',
      () =>
        server.use(
          http.post(`${GITLAB_URL}/api/graphql`, async () => {
            await delay(300);
            return HttpResponse.json({});
          }),
        ),
      { requestTimeoutMs: 20 },
      'did not answer within 20 ms',
    ],
    [
      'UPSTREAM_ERROR',
      () =>
        server.use(
          http.post(`${GITLAB_URL}/api/graphql`, () => HttpResponse.error()),
        ),
      {},
      'connection to GitLab (gitlab.test) failed',
    ],
  ];

  it.each(cases)('%s from GitLab', async (code, setup, config, message) => {
    setup();
    const { service, logLines } = createTestService(config);
    const error = await failureOf(service.listEnvironments(appEntity));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(logLines()).not.toContain(TOKEN);
  });

  it('retries 5xx reads with back-off but never 4xx', async () => {
    server.use(
      http.post(`${GITLAB_URL}/api/graphql`, () =>
        HttpResponse.json({}, { status: 502 }),
      ),
    );
    const graphqlRequests = () => requests.filter(r => r.startsWith('POST'));
    await failureOf(createTestService().service.listEnvironments(appEntity));
    expect(graphqlRequests()).toHaveLength(3);
    requests.length = 0;
    server.use(
      http.post(`${GITLAB_URL}/api/graphql`, () =>
        HttpResponse.json({}, { status: 401 }),
      ),
    );
    await failureOf(createTestService().service.listEnvironments(appEntity));
    expect(graphqlRequests()).toHaveLength(1);
  });

  it('PROJECT_NOT_FOUND', async () => {
    server.use(gitlabGraphql());
    const error = await failureOf(
      createTestService().service.listEnvironments(
        entityWith({ 'gitlab.com/project-slug': 'acme/gone' }),
      ),
    );
    expect(error.code).toBe('PROJECT_NOT_FOUND');
    expect(error.message).toContain('acme/gone');
  });

  it.each([
    [{}, 'MISSING_ANNOTATION'],
    [{ 'gitlab.com/project-slug': 'not a slug' }, 'INVALID_ANNOTATION'],
    [{ 'gitlab.com/project-slug': 'acme/../other' }, 'INVALID_ANNOTATION'],
    [{ 'gitlab.com/project-slug': 'acme/app.git' }, 'INVALID_ANNOTATION'],
    [{ 'gitlab.com/project-id': 'abc' }, 'INVALID_ANNOTATION'],
    [
      {
        'gitlab.com/project-slug': 'a/b',
        'gitlab-env/label-selector': 'app in (a,',
      },
      'INVALID_ANNOTATION',
    ],
    [
      { 'gitlab.com/project-slug': 'a/b', 'gitlab-env/tiers': 'prod' },
      'INVALID_ANNOTATION',
    ],
    [
      {
        'gitlab.com/project-slug': 'a/b',
        'gitlab.com/instance': 'gitlab.other',
      },
      'UNKNOWN_INSTANCE',
    ],
  ])(
    '%j fails with %s before any upstream request',
    async (annotations, code) => {
      const error = await failureOf(
        createTestService().service.listEnvironments(entityWith(annotations)),
      );
      expect(error.code).toBe(code);
      expect(requests).toEqual([]);
    },
  );

  it('UNKNOWN_INSTANCE lists the configured hosts', async () => {
    const error = await failureOf(
      createTestService().service.listEnvironments(
        entityWith({
          'gitlab.com/project-slug': 'a/b',
          'gitlab.com/instance': 'gitlab.other',
        }),
      ),
    );
    expect(error.message).toContain('Configured: gitlab.test');
  });

  it.each([
    [
      { name: 'production', agentId: null, namespace: null },
      'NO_AGENT',
      'environment:kubernetes:agent',
    ],
    // GitLab hides the agent (clusterAgent null) from a user without read_cluster_agent.
    [
      { name: 'production', agentId: null },
      'AGENT_NOT_VISIBLE',
      "Developer of the agent's configuration project",
    ],
    [{ name: 'production', namespace: null }, 'NO_NAMESPACE', 'namespace'],
  ])('%j fails with %s', async (environment, code, hint) => {
    server.use(gitlabGraphql({ environments: [environment] }));
    const error = await failureOf(
      createTestService().service.getEnvironmentResources(
        appEntity,
        'production',
      ),
    );
    expect(error.code).toBe(code);
    expect(error.hint).toContain(hint);
  });

  it('ENVIRONMENT_NOT_FOUND for a slug the entity does not show', async () => {
    server.use(gitlabGraphql());
    const error = await failureOf(
      createTestService().service.getEnvironmentResources(appEntity, 'nope'),
    );
    expect(error.code).toBe('ENVIRONMENT_NOT_FOUND');
  });

  it('AGENT_NOT_SHARED names the agent and its configuration file', async () => {
    server.use(
      gitlabGraphql(),
      http.get(`${KAS_URL}/*`, () =>
        HttpResponse.json(
          { message: 'Unauthorized' },
          { status: 401, headers: { 'Gitlab-Unauthorized': 'true' } },
        ),
      ),
    );
    const error = await failureOf(
      createTestService().service.getEnvironmentResources(
        appEntity,
        'production',
      ),
    );
    expect(error.code).toBe('AGENT_NOT_SHARED');
    expect(error.message).toContain(
      'acme/infra: .gitlab/agents/agent-1/config.yaml',
    );
  });

  const kasCases: Array<[string, () => void]> = [
    [
      'AGENT_NOT_SHARED',
      () =>
        server.use(
          http.get(`${KAS_URL}/*`, () =>
            HttpResponse.json(
              { message: 'Unauthorized' },
              { status: 401, headers: { 'Gitlab-Unauthorized': 'true' } },
            ),
          ),
        ),
    ],
    [
      'AGENT_NOT_CONNECTED',
      () =>
        server.use(
          http.get(`${KAS_URL}/*`, () =>
            HttpResponse.json(
              { message: 'no agentk connected' },
              { status: 502 },
            ),
          ),
        ),
    ],
    [
      'KAS_UNAVAILABLE',
      () => server.use(http.get(`${KAS_URL}/*`, () => HttpResponse.error())),
    ],
    [
      'KAS_UNAVAILABLE',
      () =>
        server.use(
          http.get(`${KAS_URL}/*`, () =>
            HttpResponse.json({}, { status: 404 }),
          ),
        ),
    ],
    [
      'UPSTREAM_ERROR',
      () =>
        server.use(
          http.get(`${KAS_URL}/*`, () =>
            HttpResponse.json({}, { status: 503 }),
          ),
        ),
    ],
    [
      'UPSTREAM_MALFORMED',
      () =>
        server.use(http.get(`${KAS_URL}/*`, () => HttpResponse.text('<html>'))),
    ],
  ];

  it.each(kasCases)('%s from KAS', async (code, setup) => {
    server.use(gitlabGraphql());
    setup();
    const { service, logLines } = createTestService();
    const error = await failureOf(
      service.getEnvironmentResources(appEntity, 'production'),
    );
    expect(error.code).toBe(code);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(logLines()).not.toContain(TOKEN);
  });

  it(
    'KAS_UNAVAILABLE when GitLab says KAS is disabled',
    // Within a boundary, the handlers below see this test's requests only:
    // a request the previous case opened as it ended reaches msw later.
    server.boundary(async () => {
      const askedKas: string[] = [];
      server.use(
        gitlabGraphql({ kasEnabled: false }),
        http.all(`${KAS_URL}/*`, ({ request }) => {
          askedKas.push(request.url);
          return HttpResponse.error();
        }),
      );
      const error = await failureOf(
        createTestService().service.getEnvironmentResources(
          appEntity,
          'production',
        ),
      );
      expect(error.code).toBe('KAS_UNAVAILABLE');
      expect(askedKas).toEqual([]);
    }),
  );

  it('sends the agent id and token to KAS in the pat: form', async () => {
    const seen: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.includes('k8s-proxy'))
        seen.push(request.headers.get('authorization')!);
    });
    server.use(gitlabGraphql(), ...kasCluster());
    await createTestService().service.getEnvironmentResources(
      appEntity,
      'production',
    );
    expect(new Set(seen)).toEqual(new Set([`Bearer pat:1:${TOKEN}`]));
  });
});
