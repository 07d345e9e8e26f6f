import { loadDefaultScenario } from '../scenario/load';
import { Scenario } from '../scenario/types';
import { graphql, useSimulator } from '../testing/harness';

/**
 * What GitLab tells of an agent's connection, and to whom:
 * `ClusterAgent.connections` (app/graphql/resolvers/kas/agent_connections_resolver.rb)
 * and the tokens' `lastUsedAt` (app/finders/clusters/agent_tokens_finder.rb).
 */
const AGENTS = `query {
  project(fullPath: "acme/platform/search-indexer") {
    environments { nodes { name clusterAgent { name
      connections(first: 1) { nodes { connectedAt } }
      tokens { nodes { lastUsedAt } } } } }
  }
}`;

const ALICE = 'glpat-alice';

async function agentsByEnvironment(
  sim: Parameters<typeof graphql>[0],
  token?: string,
) {
  const { body } = await graphql(sim, AGENTS, undefined, token);
  return Object.fromEntries(
    body.data.project.environments.nodes.map((n: any) => [
      n.name,
      n.clusterAgent,
    ]),
  ) as Record<string, any>;
}

const minutesAgo = (iso: string, now: number) =>
  (now - new Date(iso).getTime()) / 60_000;

describe('an agent connection as GitLab shows it', () => {
  let now = Date.now();
  const sim = useSimulator({ now: () => now });

  it('shows live connections to Maintainers of the agent project only (admin_cluster)', async () => {
    const asMaintainer = await agentsByEnvironment(sim(), ALICE);
    expect(asMaintainer.production.connections.nodes).toHaveLength(1);
    expect(asMaintainer.development.connections.nodes).toEqual([]);
    // backstage-bot is a Reporter of acme/infra: an empty list, as if none.
    const asBot = await agentsByEnvironment(sim());
    expect(asBot.production.connections.nodes).toEqual([]);
  });

  it("shows the tokens' last use to whoever may read the agent (17.0 on): now while connected, when it went away after", async () => {
    const agents = await agentsByEnvironment(sim());
    // prod-us: connected, token in use now.
    expect(
      minutesAgo(agents.production.tokens.nodes[0].lastUsedAt, now),
    ).toBeLessThan(1);
    // edge: agentk stopped two hours ago (lastConnected: 2h).
    expect(
      minutesAgo(agents.development.tokens.nodes[0].lastUsedAt, now),
    ).toBeGreaterThan(100);
    // lab: agentk never connected, its token never used.
    expect(agents.lab.tokens.nodes).toEqual([{ lastUsedAt: null }]);
  });

  it('an agent the knob disconnects keeps the moment it went away, and is seen again once it reconnects', async () => {
    sim().setFaults({ disconnectedAgents: ['prod-us'] });
    const wentAway = now;
    now += 20 * 60_000;
    const away = await agentsByEnvironment(sim(), ALICE);
    expect(away.production.connections.nodes).toEqual([]);
    expect(new Date(away.production.tokens.nodes[0].lastUsedAt).getTime()).toBe(
      wentAway,
    );
    sim().setFaults({ disconnectedAgents: [] });
    const back = await agentsByEnvironment(sim(), ALICE);
    expect(back.production.connections.nodes).toHaveLength(1);
    expect(new Date(back.production.tokens.nodes[0].lastUsedAt).getTime()).toBe(
      now,
    );
  });

  it('without KAS, connections fail as the resolver does (ResourceNotAvailable), the rest answers', async () => {
    sim().setFaults({ kasEnabled: false });
    try {
      const { body } = await graphql(sim(), AGENTS, undefined, ALICE);
      expect(body.errors[0].message).toBe(
        'Gitlab::Kas::Client::ConfigurationError',
      );
      // The error names the field, beside the data it left null.
      expect(body.errors[0].path.slice(-2)).toEqual([
        'clusterAgent',
        'connections',
      ]);
      const production = body.data.project.environments.nodes.find(
        (n: any) => n.name === 'production',
      );
      expect(production.clusterAgent.connections).toBeNull();
      expect(production.clusterAgent.tokens.nodes).toHaveLength(1);
    } finally {
      sim().setFaults({ kasEnabled: true });
    }
  });
});

describe('before 17.0, the tokens of an agent', () => {
  const scenario: Scenario = loadDefaultScenario();
  scenario.instance.version = '16.11.2';
  const sim = useSimulator({ scenario });

  it('are shown to Maintainers of its project only', async () => {
    const asBot = await agentsByEnvironment(sim());
    expect(asBot.production.tokens.nodes).toEqual([]);
    expect(asBot.development.tokens.nodes).toEqual([]);
    const asMaintainer = await agentsByEnvironment(sim(), ALICE);
    expect(asMaintainer.production.tokens.nodes).toHaveLength(1);
  });
});
