import { loadDefaultScenario } from '../scenario/load';
import { Scenario } from '../scenario/types';
import { kas, useSimulator } from '../testing/harness';

/**
 * user_access as GitLab stores and applies it
 * (app/services/clusters/agents/authorizations/user_access/refresh_service.rb,
 * app/models/clusters/agents/authorizations/user_access/{project,group}_authorization.rb).
 */
function scenarioWith(change: (scenario: Scenario) => void): Scenario {
  const scenario = loadDefaultScenario();
  change(scenario);
  return scenario;
}

const agent = (scenario: Scenario, name: string) =>
  scenario.agents.find(a => a.name === name)!;

describe('user_access rules', () => {
  let now = Date.now();
  const scenario = scenarioWith(s => {
    // acme/shop/storefront is a project under the listed group; backstage-bot
    // is a member of acme/shop (a subgroup), not of acme.
    agent(s, 'prod-eu').config.user_access = {
      access_as: { agent: {} },
      groups: [{ id: 'acme' }],
    };
    // Outside the agent project's top-level group (acme): dropped.
    agent(s, 'restricted').config.user_access = {
      access_as: { agent: {} },
      groups: [{ id: 'elsewhere/shop' }],
      projects: [{ id: 'elsewhere/app' }],
    };
    s.groups.push({
      id: 90,
      fullPath: 'elsewhere',
      name: 'Elsewhere',
      visibility: 'private',
    });
    s.memberships.push(
      { username: 'backstage-bot', path: 'elsewhere', role: 'developer' },
      {
        username: 'backstage-bot',
        path: 'acme/shop/storefront',
        role: 'developer',
      },
    );
    // Registered, never connected: GitLab has stored no authorization.
    const edge = agent(s, 'edge');
    edge.configReportedAt = undefined;
    edge.config.user_access = {
      access_as: { agent: {} },
      projects: [{ id: 'acme/shop/storefront' }],
    };
  });
  const sim = useSimulator({ scenario, now: () => now });

  it('a group entry needs a direct membership of the group or a parent, not of a subgroup or project below it (group_authorization.rb for_user)', async () => {
    expect((await kas(sim(), 2, '/api/v1/namespaces')).status).toBe(401);
  });

  it('a project entry counts inherited group membership (project_authorization.rb for_user)', async () => {
    expect((await kas(sim(), 1, '/api/v1/namespaces')).status).toBe(200);
  });

  it("drops entries outside the agent project's top-level group (refresh_service.rb root_ancestor)", async () => {
    expect((await kas(sim(), 4, '/api/v1/namespaces')).status).toBe(401);
  });

  it('authorizes nothing for an agent that never connected, and shows it with a never-used token (agent_configuration/server/server.go)', async () => {
    const response = await kas(sim(), 5, '/api/v1/namespaces');
    expect(response.status).toBe(401);
    expect(response.headers.get('gitlab-unauthorized')).toBe('true');
    expect((await response.json()).message).toMatch(
      /^GitLab Agent Server: Unauthorized\. Trace ID: /,
    );
  });

  it('caches an authorization for a minute and a refusal for 10 s (kubernetes_api/server/defaulting.go)', async () => {
    const prodUs = agent(scenario, 'prod-us');
    const saved = prodUs.config.user_access;
    expect((await kas(sim(), 1, '/api/v1/namespaces')).status).toBe(200);
    prodUs.config.user_access = undefined;
    now += 59_000;
    expect((await kas(sim(), 1, '/api/v1/namespaces')).status).toBe(200);
    now += 2_000;
    expect((await kas(sim(), 1, '/api/v1/namespaces')).status).toBe(401);
    prodUs.config.user_access = saved;
    now += 9_000;
    expect((await kas(sim(), 1, '/api/v1/namespaces')).status).toBe(401);
    now += 2_000;
    expect((await kas(sim(), 1, '/api/v1/namespaces')).status).toBe(200);
  });

  it('answers KAS 401 texts as KAS writes them (proxy.go)', async () => {
    const response = await fetch(`${sim().kasProxyUrl}/api/v1/namespaces`);
    expect(response.status).toBe(401);
    expect((await response.json()).message).toMatch(
      /^GitLab Agent Server: Unauthorized: no valid credentials provided\. Trace ID: /,
    );
    const bad = await fetch(`${sim().kasProxyUrl}/api/v1/namespaces`, {
      headers: { authorization: 'Basic abc' },
    });
    expect((await bad.json()).message).toMatch(
      /^GitLab Agent Server: Unauthorized: Authorization header: /,
    );
  });
});
