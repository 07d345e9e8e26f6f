import { ConfigReader } from '@backstage/config';
import {
  DEMO_TOKEN,
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { TEST_KAS_TUNNELS } from '../__testUtils__/backendOnSimulator';
import { readGitlabEnvConfig } from '../config';
import { SharedTransport } from '../transport';
import { DefaultGitlabAgentClustersService } from './agentClustersService';

function serviceWith(simulator: RunningSimulator, token: string) {
  const config = readGitlabEnvConfig(
    new ConfigReader({
      gitlabEnv: {
        instances: [
          { host: 'gitlab.example.com', baseUrl: simulator.url, token },
        ],
      },
    }),
  );
  return new DefaultGitlabAgentClustersService(
    config,
    new SharedTransport(config),
  );
}

describe('the agents a token may use, as clusters (against the simulator)', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startGitlabSimulator({ kasTunnels: TEST_KAS_TUNNELS });
  });
  afterAll(() => simulator.close());

  it('lists the agents shared with the bot through user_access that KAS lets through, connected or not', async () => {
    const { clusters, errors } = await serviceWith(
      simulator,
      DEMO_TOKEN,
    ).listAgentClusters();
    const byName = Object.fromEntries(
      clusters.map(c => [c.agent.name, c.connection]),
    );
    // prod-us, nonprod and edge share with acme/platform or acme/shop, where
    // the bot is a direct Developer; prod-eu with the storefront project.
    // restricted and vault share with acme/infra (the bot is a Reporter
    // there); lab never connected, so GitLab stored no authorization.
    expect(byName).toEqual({
      'prod-us': 'connected',
      'prod-eu': 'connected',
      nonprod: 'connected',
      edge: 'notConnected',
    });
    expect(clusters[0].kasProxyUrl).toBe(simulator.kasProxyUrl);
    expect(clusters.find(c => c.agent.name === 'prod-us')?.agent).toEqual(
      expect.objectContaining({ id: '1', configProject: 'acme/infra' }),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'AGENT_NOT_CONNECTED',
        host: 'gitlab.example.com',
        agent: 'edge',
        // GitLab's tokens say so (2 hours unused): KAS's tunnel search is not waited for.
        message: expect.stringContaining('GitLab says so; KAS was not asked'),
      }),
    ]);
  });

  it('answers the token rules of the plugin: a token without k8s_proxy lists nothing and says why', async () => {
    const { clusters, errors } = await serviceWith(
      simulator,
      'glpat-bot-no-k8s-proxy',
    ).listAgentClusters();
    expect(clusters).toEqual([]);
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'TOKEN_SCOPE_MISSING',
        message:
          'The token configured for gitlab.example.com lacks the k8s_proxy scope.',
      }),
    ]);
  });

  it('leaves out an agent KAS refuses for the token, naming the cause', async () => {
    // A Developer of the storefront project only: GitLab lists the agents
    // shared with acme/shop for the project, but a group entry needs a
    // direct membership of the group, so KAS refuses those.
    const memberships = simulator.scenario.memberships;
    memberships.push({
      username: 'outsider',
      path: 'acme/shop/storefront',
      role: 'developer',
    });
    try {
      const { clusters, errors } = await serviceWith(
        simulator,
        'glpat-outsider',
      ).listAgentClusters();
      expect(clusters.map(c => c.agent.name)).toEqual(['prod-eu']);
      expect(errors.map(e => [e.agent, e.code]).sort()).toEqual([
        ['nonprod', 'AGENT_NOT_SHARED'],
        ['prod-us', 'AGENT_NOT_SHARED'],
      ]);
      expect(errors[0].message).toContain('user_access');
    } finally {
      memberships.pop();
    }
  });

  it('makes the bearer KAS takes, and refuses what it cannot make', () => {
    const service = serviceWith(simulator, DEMO_TOKEN);
    expect(
      service.kasBearerToken({ host: 'gitlab.example.com', agentId: '1' }),
    ).toBe(`pat:1:${DEMO_TOKEN}`);
    expect(() =>
      service.kasBearerToken({ host: 'other.example.com', agentId: '1' }),
    ).toThrow('No GitLab instance other.example.com is configured');
    expect(() =>
      service.kasBearerToken({ host: 'gitlab.example.com', agentId: '1:x' }),
    ).toThrow('is not a GitLab agent id');
  });
});
