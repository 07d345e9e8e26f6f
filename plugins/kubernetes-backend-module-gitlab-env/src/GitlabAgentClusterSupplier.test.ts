import { mockServices } from '@backstage/backend-test-utils';
import {
  GitlabAgentCluster,
  GitlabAgentClusterList,
  GitlabAgentClustersService,
} from '@gitlab-env/backstage-plugin-gitlab-env-backend';
import { GitlabAgentClusterSupplier } from './GitlabAgentClusterSupplier';

const credentials = { credentials: {} as any };

function agent(
  id: string,
  name: string,
  connection: GitlabAgentCluster['connection'] = 'connected',
  host = 'gitlab.example.com',
  configProject = 'acme/infra',
): GitlabAgentCluster {
  return {
    host,
    agent: { id, name, configProject },
    kasProxyUrl: `https://kas.${host}/k8s-proxy`,
    connection,
  };
}

/** A service whose answers the test queues, counting the listings. */
function scripted(...answers: GitlabAgentClusterList[]) {
  const calls = { count: 0 };
  const service: GitlabAgentClustersService = {
    async listAgentClusters() {
      const answer = answers[Math.min(calls.count, answers.length - 1)];
      calls.count += 1;
      return answer;
    },
    kasBearerToken: () => 'unused',
  };
  return { service, calls };
}

function supplier(service: GitlabAgentClustersService, clock: { now: number }) {
  return new GitlabAgentClusterSupplier(service, {
    refreshIntervalMs: 60_000,
    skipMetricsLookup: false,
    logger: mockServices.logger.mock(),
    now: () => clock.now,
  });
}

const names = async (s: GitlabAgentClusterSupplier) =>
  (await s.getClusters(credentials)).map(c => c.name);

describe('GitlabAgentClusterSupplier', () => {
  it('lists once, answers from its cache, and refreshes in the background once the list is older than the interval', async () => {
    const clock = { now: 0 };
    const { service, calls } = scripted(
      { clusters: [agent('1', 'prod-us')], errors: [] },
      { clusters: [agent('1', 'prod-us'), agent('2', 'prod-eu')], errors: [] },
    );
    const s = supplier(service, clock);
    const [a, b] = await Promise.all([names(s), names(s)]);
    expect([a, b, calls.count]).toEqual([['prod-us'], ['prod-us'], 1]);
    clock.now = 59_999;
    expect(await names(s)).toEqual(['prod-us']);
    expect(calls.count).toBe(1);
    clock.now = 60_000;
    // The stale list answers; the refresh it started serves the next call.
    expect(await names(s)).toEqual(['prod-us']);
    await s.refresh();
    expect(await names(s)).toEqual(['prod-us', 'prod-eu']);
  });

  it('describes each agent as a cluster reached through KAS with the gitlabAgent auth provider', async () => {
    const { service } = scripted({
      clusters: [agent('7', 'prod-us')],
      errors: [],
    });
    expect(
      await supplier(service, { now: 0 }).getClusters(credentials),
    ).toEqual([
      {
        name: 'prod-us',
        title: 'prod-us (acme/infra)',
        url: 'https://kas.gitlab.example.com/k8s-proxy',
        authMetadata: {
          'kubernetes.io/auth-provider': 'gitlabAgent',
          'gitlab-env/instance': 'gitlab.example.com',
          'gitlab-env/agent-id': '7',
          'gitlab-env/agent': 'acme/infra: prod-us',
        },
        skipMetricsLookup: false,
      },
    ]);
  });

  it('leaves out disconnected agents, and keeps an agent whose check was inconclusive only if it was listed before', async () => {
    const clock = { now: 0 };
    const { service } = scripted(
      {
        clusters: [
          agent('1', 'prod-us'),
          agent('5', 'edge', 'notConnected'),
          agent('9', 'new', 'unknown'),
        ],
        errors: [],
      },
      {
        clusters: [
          agent('1', 'prod-us', 'unknown'),
          agent('9', 'new', 'unknown'),
        ],
        errors: [],
      },
    );
    const s = supplier(service, clock);
    expect(await names(s)).toEqual(['prod-us']);
    await s.refresh();
    expect(await names(s)).toEqual(['prod-us']);
  });

  it("keeps an instance's clusters while GitLab does not answer, and drops them when the token is refused", async () => {
    const clock = { now: 0 };
    const other = agent('3', 'other', 'connected', 'gitlab.other.com');
    const { service } = scripted(
      { clusters: [agent('1', 'prod-us'), other], errors: [] },
      {
        clusters: [other],
        errors: [
          {
            host: 'gitlab.example.com',
            code: 'UPSTREAM_TIMEOUT',
            message: 'GitLab did not answer.',
          },
        ],
      },
      {
        clusters: [other],
        errors: [
          {
            host: 'gitlab.example.com',
            code: 'TOKEN_REVOKED',
            message: 'The token configured for gitlab.example.com was revoked.',
          },
        ],
      },
    );
    const s = supplier(service, clock);
    await names(s);
    await s.refresh();
    expect((await names(s)).sort()).toEqual(['other', 'prod-us']);
    await s.refresh();
    expect(await names(s)).toEqual(['other']);
  });

  it('qualifies a name two agents share by configuration project, then by instance', async () => {
    const { service } = scripted({
      clusters: [
        agent('1', 'prod', 'connected', 'gitlab.example.com', 'acme/infra'),
        agent('2', 'prod', 'connected', 'gitlab.example.com', 'acme/other'),
        agent('3', 'prod', 'connected', 'gitlab.other.com', 'acme/infra'),
        agent('4', 'staging'),
      ],
      errors: [],
    });
    expect(await names(supplier(service, { now: 0 }))).toEqual([
      'gitlab.example.com/acme/infra/prod',
      'acme/other/prod',
      'gitlab.other.com/acme/infra/prod',
      'staging',
    ]);
  });

  it('logs each failure once, with its hint, until it goes away', async () => {
    const logger = mockServices.logger.mock();
    const failing: GitlabAgentClusterList = {
      clusters: [],
      errors: [
        {
          host: 'gitlab.example.com',
          code: 'TOKEN_SCOPE_MISSING',
          message:
            'The token configured for gitlab.example.com lacks the k8s_proxy scope.',
          hint: 'Create a token with the read_api and k8s_proxy scopes.',
        },
      ],
    };
    const { service } = scripted(
      failing,
      failing,
      { clusters: [], errors: [] },
      failing,
    );
    const s = new GitlabAgentClusterSupplier(service, {
      refreshIntervalMs: 1,
      skipMetricsLookup: false,
      logger,
    });
    for (let i = 0; i < 4; i++) await s.refresh();
    expect(logger.warn.mock.calls.map(c => c[0])).toEqual([
      'GitLab agent clusters of gitlab.example.com: The token configured for gitlab.example.com lacks the k8s_proxy scope. Create a token with the read_api and k8s_proxy scopes.',
      'GitLab agent clusters of gitlab.example.com: The token configured for gitlab.example.com lacks the k8s_proxy scope. Create a token with the read_api and k8s_proxy scopes.',
    ]);
  });
});
