import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  DeploymentHistoryResponse,
  DiagnosticsResponse,
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
  GitlabEnvErrorResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  DEMO_TOKEN,
  environmentSlug,
  loadDefaultScenario,
  RunningSimulator,
  Scenario,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from './__testUtils__/backendOnSimulator';

/**
 * The backend against the simulator serving the GitLab versions adopters run:
 * the floor (16.4), the last version without `kas.externalK8sProxyUrl`
 * (17.5), the first with it (17.6) and the newest 18.x.
 */

const entities = [
  component('storefront', {
    'gitlab.com/project-slug': 'acme/shop/storefront',
  }),
  component('search-indexer', { 'gitlab.com/project-id': '104' }),
  component('checkout-api', {
    'gitlab.com/project-slug': 'acme/shop/checkout-api',
  }),
];

const US_REGION = environmentSlug('production/us-region');

function scenarioAt(version: string): Scenario {
  const scenario = loadDefaultScenario();
  return { ...scenario, instance: { ...scenario.instance, version } };
}

function withToken(simulator: RunningSimulator, token: string) {
  return {
    instances: [{ host: 'gitlab.example.com', baseUrl: simulator.url, token }],
  };
}

async function startPair(
  version: string,
  gitlabEnv: (sim: RunningSimulator) => Record<string, unknown> = () => ({}),
  simulatorOptions: Parameters<typeof startGitlabSimulator>[0] = {},
) {
  const simulator = await startGitlabSimulator({
    port: 0,
    scenario: scenarioAt(version),
    kasTunnels: TEST_KAS_TUNNELS,
    ...simulatorOptions,
  });
  const backend = await startBackendOnSimulator(simulator, {
    entities,
    gitlabEnv: gitlabEnv(simulator),
  });
  const get = (path: string) =>
    request(backend.server).get(`/api/gitlab-env${path}`);
  return { simulator, backend, get };
}

describe.each([
  ['16.4.0', 'derived'],
  ['17.5.3-ee', 'derived'],
  ['17.6.0', 'metadata'],
  ['18.11.1-ee', 'metadata'],
])('against GitLab %s', (version, kasSource) => {
  let pair: Awaited<ReturnType<typeof startPair>>;
  beforeAll(async () => {
    pair = await startPair(version);
  });
  afterAll(() => pair.simulator.close());

  it('lists environments with their agents and namespaces', async () => {
    const res = await pair.get(
      '/entity/default/component/storefront/environments?withHealth=false',
    );
    expect(res.status).toBe(200);
    const body = res.body as EntityEnvironmentsResponse;
    expect(body.environments.map(e => e.name)).toContain(
      'production/us-region',
    );
    expect(body.environments.find(e => e.name === 'staging')).toMatchObject({
      agent: { id: '3', name: 'nonprod' },
      namespace: 'storefront-staging',
      fluxResourcePath: expect.stringContaining('helmreleases'),
    });
  });

  it('reads resources through KAS, with the Secret refusal as information', async () => {
    const res = await pair.get(
      '/entity/default/component/search-indexer/environments/production/resources',
    );
    expect(res.status).toBe(200);
    const body = res.body as EnvironmentResourcesResponse;
    expect(body.resources.some(o => o.kind === 'Pod')).toBe(true);
    expect(body.errors).toEqual([
      expect.objectContaining({
        code: 'KIND_FORBIDDEN',
        resource: 'Secret',
        expected: true,
      }),
    ]);
  });

  it('reads deployment history with the GraphQL document this version validates', async () => {
    const res = await pair.get(
      '/entity/default/component/checkout-api/environments/production/deployments',
    );
    expect(res.status).toBe(200);
    const body = res.body as DeploymentHistoryResponse;
    // Not the REST fallback: GitLab of this version accepted the document.
    expect(body.source).toBe('graphql');
    expect(body.deployments[0]).toMatchObject({
      iid: '212',
      job: { pipeline: { id: expect.any(String) } },
      triggerer: { username: 'alice' },
    });
  });

  it(`finds KAS through the ${kasSource} URL and shows it in the diagnostics`, async () => {
    const res = await pair.get('/diagnostics');
    expect(res.status).toBe(200);
    const [instance] = (res.body as DiagnosticsResponse).instances;
    expect(instance).toMatchObject({
      host: 'gitlab.example.com',
      version,
      versionUnsupported: false,
      kas: {
        enabled: true,
        url: pair.simulator.kasProxyUrl,
        source: kasSource,
      },
      token: {
        name: 'backstage',
        scopes: ['read_api', 'k8s_proxy'],
        missingScopes: [],
      },
    });
    expect(JSON.stringify(res.body)).not.toContain(DEMO_TOKEN);
  });
});

describe('each cause, named', () => {
  const cases: Array<[string, string, string, number, string]> = [
    [
      'an expired token',
      'glpat-bot-expired',
      'environments',
      503,
      'TOKEN_EXPIRED',
    ],
    [
      'a revoked token',
      'glpat-bot-revoked',
      'environments',
      503,
      'TOKEN_REVOKED',
    ],
    [
      'an unknown token',
      'glpat-nope',
      'environments',
      503,
      'GITLAB_UNAUTHORIZED',
    ],
    [
      'a token without read_api',
      'glpat-bot-read-user',
      'environments',
      503,
      'TOKEN_SCOPE_MISSING',
    ],
    [
      'a token without k8s_proxy',
      'glpat-bot-no-k8s-proxy',
      'environments/staging/resources',
      503,
      'TOKEN_SCOPE_MISSING',
    ],
  ];
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      scenario: scenarioAt('17.5.3-ee'),
      kasTunnels: TEST_KAS_TUNNELS,
    });
  });
  afterAll(() => simulator.close());

  it.each(cases)('%s', async (_, token, path, status, code) => {
    const backend = await startBackendOnSimulator(simulator, {
      entities,
      gitlabEnv: withToken(simulator, token),
    });
    const res = await request(backend.server).get(
      `/api/gitlab-env/entity/default/component/storefront/${path}`,
    );
    expect(res.status).toBe(status);
    expect((res.body as GitlabEnvErrorResponse).gitlabEnv.code).toBe(code);
    expect(JSON.stringify(res.body)).not.toContain(token);
    await backend.stop();
  });

  it('a GitLab older than 16.4', async () => {
    const pair = await startPair('16.3.7');
    const res = await pair.get(
      '/entity/default/component/storefront/environments',
    );
    expect(res.status).toBe(503);
    expect((res.body as GitlabEnvErrorResponse).gitlabEnv).toMatchObject({
      code: 'GITLAB_VERSION_UNSUPPORTED',
      message: expect.stringContaining('16.3.7'),
    });
    await pair.simulator.close();
  });

  it('the diagnostics view needs its own permission', async () => {
    const permissions = mockServices.permissions.mock();
    permissions.authorize.mockImplementation(async requests =>
      requests.map(() => ({ result: AuthorizeResult.DENY } as any)),
    );
    const backend = await startBackendOnSimulator(simulator, {
      entities,
      features: [permissions.factory],
    });
    const res = await request(backend.server).get(
      '/api/gitlab-env/diagnostics',
    );
    expect(res.status).toBe(403);
    expect(permissions.authorize).toHaveBeenCalledWith(
      [
        {
          permission: expect.objectContaining({
            name: 'gitlab-env.diagnostics.read',
          }),
        },
      ],
      expect.anything(),
    );
    await backend.stop();
  });
});

/**
 * KAS timing with the tunnel search scaled down (3 s for KAS's 20 s) and the
 * backend's timeouts scaled with it: the per-request timeout below the search,
 * the first-request timeout above it, as the defaults are (10 s / 25 s).
 * The per-request timeout is what one list of a connected agent must fit in,
 * with the simulator in the same process, on a machine others load too; the
 * gaps between the three leave seconds for a stalled event loop.
 */
describe('KAS timing, scaled', () => {
  let pair: Awaited<ReturnType<typeof startPair>>;
  beforeAll(async () => {
    pair = await startPair(
      '18.11.1-ee',
      () => ({
        requestTimeoutMs: 1000,
        kasFirstRequestTimeoutMs: 6000,
        cacheTtlSeconds: 0.05,
        transientCacheSeconds: 0.05,
      }),
      { kasTunnels: { findTimeoutMs: 3000 } },
    );
  });
  afterAll(() => pair.simulator.close());
  afterEach(() => pair.simulator.setFaults({ disconnectedAgents: [] }));

  /** Each KAS path asked once: nothing was tried again. */
  const expectNoRepeats = () => {
    const kas = Object.entries(pair.simulator.stats().byPath).filter(([path]) =>
      path.includes('/k8s-proxy/'),
    );
    expect(kas.length).toBeGreaterThan(0);
    expect(kas.filter(([, count]) => count > 1)).toEqual([]);
  };

  it('waits out the tunnel search of an agent not heard from yet, then says it is not connected', async () => {
    pair.simulator.resetStats();
    const res = await pair.get(
      '/entity/default/component/search-indexer/environments/development/resources',
    );
    expect((res.body as GitlabEnvErrorResponse).gitlabEnv.code).toBe(
      'AGENT_NOT_CONNECTED',
    );
    // The 502 came after the search: asking again would wait as long.
    expectNoRepeats();
  }, 30_000);

  it('does not repeat a request that ran into the search after the agent went away', async () => {
    const first = await pair.get(
      '/entity/default/component/search-indexer/environments/production/resources',
    );
    expect(first.status).toBe(200);
    // Every list answered in time, so the agent is taken as answering.
    expect(
      (first.body as EnvironmentResourcesResponse).errors.filter(
        e => e.code === 'UPSTREAM_TIMEOUT',
      ),
    ).toEqual([]);
    pair.simulator.setFaults({ disconnectedAgents: ['prod-us'] });
    pair.simulator.resetStats();
    const timedOut = await pair.get(
      `/entity/default/component/storefront/environments/${US_REGION}/resources`,
    );
    // Each list gave up at the per-request timeout; what had loaded still shows.
    const read = timedOut.body as EnvironmentResourcesResponse;
    expect(read.errors.length).toBeGreaterThan(0);
    expect(new Set(read.errors.map(e => e.code))).toEqual(
      new Set(['UPSTREAM_TIMEOUT']),
    );
    expectNoRepeats();
    // The agent is not taken as answering any more: the next read of it
    // (the first read's environment, whose cached read outlived its TTL
    // while the lists above timed out) waits the search out.
    const named = await pair.get(
      '/entity/default/component/search-indexer/environments/production/resources',
    );
    expect((named.body as GitlabEnvErrorResponse).gitlabEnv.code).toBe(
      'AGENT_NOT_CONNECTED',
    );
  }, 30_000);
});
