import { DEMO_TOKEN } from '../scenario/generate';
import { graphql, useSimulator } from '../testing/harness';

const ENVIRONMENT_FIELDS = `
  id name slug tier state environmentType externalUrl path autoStopAt
  kubernetesNamespace fluxResourcePath
  clusterAgent { id name webPath project { fullPath } }
  lastDeployment(status: SUCCESS) { id iid status ref sha createdAt finishedAt webPath }
`;

describe('GitLab GraphQL', () => {
  const sim = useSimulator();

  it('answers the environments query the backend sends, with GitLab ids and agent links', async () => {
    const { status, body } = await graphql(
      sim(),
      `query Envs($fullPath: ID!) { project(fullPath: $fullPath) { id fullPath name webUrl
        environments(first: 50) { pageInfo { hasNextPage endCursor } nodes { ${ENVIRONMENT_FIELDS} } } } }`,
      { fullPath: 'acme/shop/storefront' },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const project = body.data.project;
    expect(project).toMatchObject({
      id: 'gid://gitlab/Project/101',
      fullPath: 'acme/shop/storefront',
      webUrl: `${sim().url}/acme/shop/storefront`,
    });
    const byName = Object.fromEntries(
      project.environments.nodes.map((e: any) => [e.name, e]),
    );
    expect(Object.keys(byName)).toEqual([
      'production/us-region',
      'production/eu-region',
      'staging',
      'review/feature-cart',
      'review/old-checkout',
    ]);
    expect(byName['production/us-region']).toMatchObject({
      id: 'gid://gitlab/Environment/1011',
      tier: 'PRODUCTION',
      state: 'available',
      environmentType: 'production',
      kubernetesNamespace: 'storefront',
      path: '/acme/shop/storefront/-/environments/1011',
      clusterAgent: {
        id: 'gid://gitlab/Clusters::Agent/1',
        name: 'prod-us',
        webPath: '/acme/infra/-/cluster_agents/prod-us',
        // backstage-bot is Reporter on acme/infra (to read agent configuration files).
        project: { fullPath: 'acme/infra' },
      },
      // The newer deployment failed; lastDeployment(status: SUCCESS) skips it.
      lastDeployment: { iid: '57', status: 'SUCCESS', ref: 'main' },
    });
    expect(byName['production/us-region'].slug).toMatch(
      /^production-us-reg-[a-z0-9]{6}$/,
    );
    expect(byName.staging.fluxResourcePath).toBe(
      'helm.toolkit.fluxcd.io/v2/namespaces/flux-system/helmreleases/storefront-staging',
    );
    expect(byName['review/old-checkout'].state).toBe('stopped');
    expect(byName['review/feature-cart'].autoStopAt).not.toBeNull();
    expect(project.environments.pageInfo.hasNextPage).toBe(false);
  });

  it('paginates environments with cursors and clamps first at 100', async () => {
    const query = `query($after: String, $first: Int) { project(fullPath: "acme/shop/storefront") {
      environments(first: $first, after: $after) { pageInfo { hasNextPage endCursor } nodes { name } } } }`;
    const names: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const { body }: any = await graphql(sim(), query, { first: 2, after });
      const connection = body.data.project.environments;
      names.push(...connection.nodes.map((n: any) => n.name));
      after = connection.pageInfo.hasNextPage
        ? connection.pageInfo.endCursor
        : null;
      pages += 1;
    } while (after);
    expect(pages).toBe(3);
    expect(names).toHaveLength(5);
    const { body } = await graphql(sim(), query, { first: 500 });
    expect(body.data.project.environments.nodes).toHaveLength(5);
  });

  it('filters environments by states, name, search and folder type', async () => {
    const { body } = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            available: environments(states: ["available"]) {
              nodes {
                name
              }
            }
          }
        }
      `,
    );
    expect(
      body.data.project.available.nodes.map((n: any) => n.name),
    ).not.toContain('review/old-checkout');
    const single = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environment(name: "staging") {
              name
              tier
            }
          }
        }
      `,
    );
    expect(single.body.data.project.environment).toEqual({
      name: 'staging',
      tier: 'STAGING',
    });
    const folder = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environments(type: "review") {
              nodes {
                name
              }
            }
          }
        }
      `,
    );
    expect(
      folder.body.data.project.environments.nodes.map((n: any) => n.name),
    ).toEqual(['review/feature-cart', 'review/old-checkout']);
    const invalid = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environments(states: ["gone"]) {
              nodes {
                name
              }
            }
          }
        }
      `,
    );
    expect(invalid.body.errors[0].message).toBe('Requested states are invalid');
  });

  it('allows environments for only one project per operation, like GitLab', async () => {
    const { body } = await graphql(
      sim(),
      `
        {
          a: project(fullPath: "acme/shop/storefront") {
            environments {
              nodes {
                name
              }
            }
          }
          b: project(fullPath: "acme/shop/checkout-api") {
            environments {
              nodes {
                name
              }
            }
          }
        }
      `,
    );
    expect(body.errors).toEqual([
      expect.objectContaining({
        message:
          '"environments" field can be requested only for 1 Project(s) at a time.',
        path: ['b', 'environments'],
      }),
    ]);
    expect(body.data.a.environments.nodes.length).toBeGreaterThan(0);
    expect(body.data.b.environments).toBeNull();
    // environment(name:) is not limited, so one operation can span projects.
    const single = await graphql(
      sim(),
      `
        {
          a: project(fullPath: "acme/shop/storefront") {
            environment(name: "staging") {
              name
            }
          }
          b: project(fullPath: "acme/shop/checkout-api") {
            environment(name: "staging") {
              name
            }
          }
        }
      `,
    );
    expect(single.body.errors).toBeUndefined();
  });

  it('hides the cluster agent from users who cannot read it, and shows it through ci_access', async () => {
    const query = `{ project(fullPath: "acme/platform/notifications") { environments { nodes { name clusterAgent { name } } } } }`;
    const { body } = await graphql(sim(), query);
    const agents = Object.fromEntries(
      body.data.project.environments.nodes.map((e: any) => [
        e.name,
        e.clusterAgent?.name ?? null,
      ]),
    );
    // restricted's user_access excludes backstage-bot, but its ci_access names this project.
    expect(agents).toMatchObject({
      production: 'restricted',
      staging: null,
      development: 'nonprod',
    });
    // alice maintains the whole acme group, including the agents' config project.
    const alice = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environment(name: "production/us-region") {
              clusterAgent {
                name
                project {
                  fullPath
                }
              }
            }
          }
        }
      `,
      undefined,
      'glpat-alice',
    );
    expect(alice.body.data.project.environment.clusterAgent).toEqual({
      name: 'prod-us',
      project: { fullPath: 'acme/infra' },
    });
  });

  it('answers null for projects the caller cannot see, and 401 for bad tokens', async () => {
    const anonymous = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            id
          }
          currentUser {
            username
          }
        }
      `,
      undefined,
      null,
    );
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data).toEqual({ project: null, currentUser: null });
    const outsider = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            id
          }
          docs: project(fullPath: "acme/docs-site") {
            id
          }
        }
      `,
      undefined,
      'glpat-outsider',
    );
    expect(outsider.body.data).toEqual({
      project: null,
      docs: { id: 'gid://gitlab/Project/105' },
    });
    for (const token of [
      'glpat-nope',
      'glpat-bot-expired',
      'glpat-bot-revoked',
    ]) {
      const denied = await graphql(
        sim(),
        '{ currentUser { username } }',
        undefined,
        token,
      );
      expect(denied.status).toBe(401);
      expect(denied.body).toEqual({ errors: [{ message: 'Invalid token' }] });
    }
  });

  it('serves metadata, currentUser and group projects', async () => {
    const { body } = await graphql(
      sim(),
      `
        {
          metadata {
            version
            kas {
              enabled
              externalUrl
              externalK8sProxyUrl
              version
            }
          }
          currentUser {
            username
          }
          group(fullPath: "acme") {
            projects(includeSubgroups: true, first: 2) {
              pageInfo {
                hasNextPage
              }
              nodes {
                fullPath
              }
            }
          }
        }
      `,
    );
    expect(body.data.metadata).toMatchObject({
      version: '17.11.1-ee',
      kas: { enabled: true, externalK8sProxyUrl: sim().kasProxyUrl },
    });
    expect(body.data.currentUser).toEqual({ username: 'backstage-bot' });
    expect(body.data.group.projects.nodes.map((p: any) => p.fullPath)).toEqual([
      'acme/infra',
      'acme/shop/storefront',
    ]);
    expect(body.data.group.projects.pageInfo.hasNextPage).toBe(true);
  });

  it('reports syntax and validation errors in GitLab error shape', async () => {
    const syntax = await graphql(sim(), '{ project(fullPath: "x") { id ');
    expect(syntax.status).toBe(200);
    expect(syntax.body.errors[0]).toMatchObject({
      message: expect.stringContaining('Syntax Error'),
      locations: [expect.objectContaining({ line: 1 })],
    });
    const unknown = await graphql(
      sim(),
      '{ project(fullPath: "acme/shop/storefront") { nope } }',
    );
    expect(unknown.body.errors[0].message).toContain(
      'Cannot query field "nope" on type "Project"',
    );
    const missingStatus = await graphql(
      sim(),
      '{ project(fullPath: "acme/shop/storefront") { environment(name: "staging") { lastDeployment { iid } } } }',
    );
    expect(missingStatus.body.errors[0].message).toContain(
      'argument "status" of type "DeploymentStatus!" is required',
    );
  });

  it('runs multiplexed batches with per-operation limits, and GET queries', async () => {
    const query = (path: string) => ({
      query: `{ project(fullPath: "${path}") { environments { nodes { name } } } }`,
    });
    const response = await fetch(sim().graphqlUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${DEMO_TOKEN}`,
      },
      body: JSON.stringify([
        query('acme/shop/storefront'),
        query('acme/shop/checkout-api'),
      ]),
    });
    const results = (await response.json()) as any[];
    expect(results.map(r => r.errors)).toEqual([undefined, undefined]);
    expect(
      results[1].data.project.environments.nodes.map((n: any) => n.name),
    ).toEqual(['production', 'staging', 'review/legacy-pay']);
    const get = await fetch(
      `${sim().graphqlUrl}?query=${encodeURIComponent(
        '{ currentUser { username } }',
      )}`,
      { headers: { 'PRIVATE-TOKEN': DEMO_TOKEN } },
    );
    expect(await get.json()).toEqual({
      data: { currentUser: { username: 'backstage-bot' } },
    });
  });

  it('lists the agents shared with a project through user_access and ci_access', async () => {
    const { body } = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/platform/notifications") {
            userAccessAuthorizedAgents {
              nodes {
                agent {
                  name
                }
                config
              }
            }
            ciAccessAuthorizedAgents {
              nodes {
                agent {
                  name
                }
                config
              }
            }
          }
        }
      `,
    );
    const { userAccessAuthorizedAgents: user, ciAccessAuthorizedAgents: ci } =
      body.data.project;
    // restricted is missing from user_access: the dashboard cannot reach it.
    expect(user.nodes.map((n: any) => n.agent.name)).toEqual([
      'prod-us',
      'nonprod',
      'edge',
    ]);
    expect(user.nodes[0].config).toEqual({
      access_as: { agent: {} },
      id: 'acme/platform',
    });
    expect(
      ci.nodes.map((n: any) => [
        n.agent.name,
        n.config.default_namespace ?? null,
      ]),
    ).toEqual([
      ['nonprod', null],
      ['restricted', 'notifications'],
    ]);
    const outsider = await graphql(
      sim(),
      '{ project(fullPath: "acme/docs-site") { userAccessAuthorizedAgents { nodes { agent { name } } } } }',
      undefined,
      'glpat-outsider',
    );
    expect(outsider.body.data.project.userAccessAuthorizedAgents.nodes).toEqual(
      [],
    );
  });

  it('refuses queries deeper than GitLab allows', async () => {
    // project > clusterAgents > nodes > project > clusterAgents > nodes > ... : 3 levels per hop.
    let selection = 'name';
    for (let i = 0; i < 7; i++)
      selection = `clusterAgents { nodes { project { ${selection} } } }`;
    const { body } = await graphql(
      sim(),
      `{ project(fullPath: "acme/infra") { ${selection} } }`,
      undefined,
      'glpat-alice',
    );
    expect(body.errors).toEqual([
      { message: 'Query has depth of 23, which exceeds max depth of 20' },
    ]);
    const fragment = await graphql(
      sim(),
      'query { ...Q } fragment Q on Query { project(fullPath: "acme/infra") { clusterAgents { nodes { name } } } }',
      undefined,
      'glpat-alice',
    );
    expect(fragment.body.errors).toBeUndefined();
  });

  it('accepts variables as a JSON string and answers 422 when they do not parse', async () => {
    const post = (variables: string) =>
      fetch(sim().graphqlUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'PRIVATE-TOKEN': DEMO_TOKEN,
        },
        body: JSON.stringify({
          query: 'query($p: ID!) { project(fullPath: $p) { id } }',
          variables,
        }),
      });
    const ok = await post('{"p":"acme/shop/storefront"}');
    expect(await ok.json()).toEqual({
      data: { project: { id: 'gid://gitlab/Project/101' } },
    });
    expect((await post('{not json')).status).toBe(422);
  });
});
