import {
  DEPLOYMENT_TIERS,
  DeploymentTier,
  EnvironmentState,
  GitlabEnvError,
  GitlabAgentRef,
  GitlabEnvironment,
  GitlabProjectRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { failure } from '../errors';
import { checkEnvironmentValues, isNumericId } from '../validation';
import { FIELD_SINCE, versionAtLeast } from './gitlabVersion';
import { requestUpstream } from './http';
import { isRecord } from '../validation/json';

/** How the entity names its project. */
export type ProjectLocator = { fullPath: string } | { id: string };

export interface ProjectEnvironments {
  project: GitlabProjectRef;
  environments: GitlabEnvironment[];
  /** Why the list may be incomplete (a pagination loop, the page limit). */
  warnings: GitlabEnvError[];
  /**
   * What the listing showed of each environment's agent's connection, by
   * agent id (the fields `agentActivity` asks): a state as old as the
   * listing, for the caller to take at once, not to keep with the list.
   */
  agentActivity?: Record<string, AgentActivity>;
}

/** 100 environments a page: 10,000 environments is far past any real project. */
const MAX_ENVIRONMENT_PAGES = 100;

/**
 * What GitLab tells the token's user of an agent's connection, without
 * asking KAS to reach the cluster. Both fields exist on every version the
 * plugin supports (they predate 16.4), but GitLab shows them only to some:
 * `connections` to Maintainers of the agent's project (an empty list to
 * others: app/graphql/resolvers/kas/agent_connections_resolver.rb), the
 * tokens to whoever may read the agent on recent versions, to Developers
 * or Maintainers of its project on older ones (agent_tokens_resolver.rb,
 * app/finders/clusters/agent_tokens_finder.rb). So an empty list alone
 * says nothing; `tokensShown` tells whether the tokens were visible.
 */
export interface AgentActivity {
  /**
   * agentk connections KAS knows of right now; undefined when GitLab could
   * not ask KAS (the field failed).
   */
  connections?: number;
  /** How many of the agent's tokens GitLab showed (0: none, or none to this user). */
  tokensShown: number;
  /** The latest use of any of the agent's tokens (agentk uses one to connect). */
  tokenLastUsedAt?: string;
}

/**
 * An agent's `connections` and `tokens`, as every query that reads an
 * agent's connection asks them (GitLab's environment_cluster_agent.query.graphql
 * asks the same). Bounded: one connection says agentk is connected, and
 * GitLab lets an agent have two active tokens
 * (Clusters::AgentTokens::CreateService's limit), so ten is ample.
 */
const AGENT_ACTIVITY_FIELDS = /* GraphQL */ `connections(first: 1) {
            nodes {
              connectedAt
            }
          }
          tokens(first: 10) {
            nodes {
              lastUsedAt
            }
          }`;

/** An agent node's `connections` and `tokens`, as GitLab showed them. */
function activityOf(agent: Record<string, any>): AgentActivity {
  // A field that failed (connections without KAS) is null beside the others.
  const connections = Array.isArray(agent.connections?.nodes)
    ? agent.connections.nodes.length
    : undefined;
  const tokens: unknown[] = Array.isArray(agent.tokens?.nodes)
    ? agent.tokens.nodes
    : [];
  const used = tokens
    .map(t => (isRecord(t) ? optionalString(t.lastUsedAt) : undefined))
    .filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)))
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return {
    connections,
    tokensShown: tokens.length,
    tokenLastUsedAt: used[used.length - 1],
  };
}

/**
 * The environment fields a GitLab of `version` has: asking for a field it
 * lacks fails the whole operation's validation. Floors in gitlabVersion.ts.
 */
function environmentFields(version: string | undefined): string {
  const since = (floor: string, field: string) =>
    versionAtLeast(version, floor) ? field : '';
  return [
    since(FIELD_SINCE.environmentKubernetesNamespace, 'kubernetesNamespace'),
    since(FIELD_SINCE.environmentFluxResourcePath, 'fluxResourcePath'),
    // With the agent, its connection as GitLab shows it, so the reads that
    // follow know it without a request of their own. GitLab asks KAS for
    // `connections`; when KAS fails, the field alone is null with an error
    // beside the data (agent_connections_resolver.rb raises
    // ResourceNotAvailable), and the list stands.
    since(
      FIELD_SINCE.environmentClusterAgent,
      `clusterAgent {
          id
          name
          webPath
          project {
            fullPath
          }
          ${AGENT_ACTIVITY_FIELDS}
        }`,
    ),
  ]
    .filter(Boolean)
    .join('\n        ');
}

/**
 * GitLab's complexity of this document (max 250 for a user,
 * GitlabSchema): each field 1, a connection's resolver +1 and +1% of that
 * per item it may load (BaseField#field_resolver_complexity). An
 * environment node is about 30 (its agent with connections and tokens
 * about 12), `environments(first: 100)` doubles it: about 80 in all.
 */
const projectFields = (version: string | undefined) => /* GraphQL */ `
  fragment ProjectEnvironments on Project {
    id
    fullPath
    webUrl
    environments(states: $states, first: 100, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        slug
        tier
        state
        environmentType
        externalUrl
        path
        autoStopAt
        ${environmentFields(version)}
        lastDeployment(status: SUCCESS) {
          iid
          status
          ref
          sha
          finishedAt
          webPath
        }
      }
    }
  }
`;

const byPath = (version: string | undefined) => /* GraphQL */ `
  query GitlabEnvByPath($fullPath: ID!, $states: [String!], $after: String) {
    project(fullPath: $fullPath) {
      ...ProjectEnvironments
    }
  }
  ${projectFields(version)}
`;

const byId = (version: string | undefined) => /* GraphQL */ `
  query GitlabEnvById($ids: [ID!], $states: [String!], $after: String) {
    projects(ids: $ids, first: 1) {
      nodes {
        ...ProjectEnvironments
      }
    }
  }
  ${projectFields(version)}
`;

/** What GitLab's environment dashboard reads to tell a never-connected agent (environment_cluster_agent.query.graphql). */
const AGENT_ACTIVITY = /* GraphQL */ `
  query GitlabEnvAgentActivity($fullPath: ID!, $name: String!) {
    project(fullPath: $fullPath) {
      environment(name: $name) {
        clusterAgent {
          ${AGENT_ACTIVITY_FIELDS}
        }
      }
    }
  }
`;

/**
 * The agents shared through `user_access` with the projects the token's user
 * is a member of (`Project.userAccessAuthorizedAgents`, as GitLab's own
 * `user_authorized_agents.query.graphql`); GitLab lists them to Developers
 * of the project only. With each agent's connections and tokens, read as
 * `agentActivity` reads them. Twenty projects a page keeps the nested
 * connections well inside GraphQL's complexity limit.
 */
const USER_ACCESS_AGENTS = /* GraphQL */ `
  query GitlabEnvUserAccessAgents($after: String) {
    projects(membership: true, first: 20, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        fullPath
        userAccessAuthorizedAgents(first: 100) {
          nodes {
            agent {
              id
              name
              webPath
              project {
                fullPath
              }
              ${AGENT_ACTIVITY_FIELDS}
            }
          }
        }
      }
    }
  }
`;

/** Pages of member projects followed when listing agents: 2,000 projects. */
const MAX_MEMBER_PROJECT_PAGES = 100;

/** The numeric id at the end of a GitLab global id (`gid://gitlab/Clusters::Agent/4`). */
export function idFromGid(gid: string): string {
  return gid.slice(gid.lastIndexOf('/') + 1);
}

function malformed(what: string) {
  return failure('UPSTREAM_MALFORMED', `GitLab answered with ${what}.`);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function toTier(value: unknown): DeploymentTier {
  const tier = String(value ?? '').toLowerCase();
  return (DEPLOYMENT_TIERS as readonly string[]).includes(tier)
    ? (tier as DeploymentTier)
    : 'other';
}

function toEnvironment(
  node: Record<string, any>,
  baseUrl: string,
): GitlabEnvironment {
  if (typeof node.id !== 'string' || typeof node.name !== 'string') {
    throw malformed('an environment without id or name');
  }
  const agent = isRecord(node.clusterAgent) ? node.clusterAgent : undefined;
  const deployment = isRecord(node.lastDeployment)
    ? node.lastDeployment
    : undefined;
  const path = optionalString(node.path);
  return {
    id: idFromGid(node.id),
    name: node.name,
    slug: optionalString(node.slug) ?? node.name,
    tier: toTier(node.tier),
    state: (optionalString(node.state) ?? 'available') as EnvironmentState,
    folder: optionalString(node.environmentType),
    externalUrl: optionalString(node.externalUrl),
    webUrl: path ? `${baseUrl}${path}` : undefined,
    autoStopAt: optionalString(node.autoStopAt),
    namespace: optionalString(node.kubernetesNamespace),
    fluxResourcePath: optionalString(node.fluxResourcePath),
    agent:
      agent && typeof agent.id === 'string'
        ? {
            id: idFromGid(agent.id),
            // Nullable in GitLab's schema; KAS needs the id only.
            name: optionalString(agent.name) ?? idFromGid(agent.id),
            webUrl:
              optionalString(agent.webPath) && `${baseUrl}${agent.webPath}`,
            configProject: optionalString(agent.project?.fullPath),
          }
        : undefined,
    lastDeployment: deployment
      ? {
          iid: String(deployment.iid ?? ''),
          status: String(deployment.status ?? '').toLowerCase(),
          ref: optionalString(deployment.ref),
          sha: optionalString(deployment.sha),
          finishedAt: optionalString(deployment.finishedAt),
          webUrl:
            optionalString(deployment.webPath) &&
            `${baseUrl}${deployment.webPath}`,
        }
      : undefined,
  };
}

/**
 * The cursor of the page after `connection`: none at the last page, `loop`
 * when GitLab sends a cursor already followed (a pagination loop).
 */
function nextPage(
  connection: Record<string, any>,
  followed: Set<string>,
): { cursor?: string; loop?: true } {
  const next = connection.pageInfo?.hasNextPage
    ? connection.pageInfo.endCursor
    : undefined;
  if (typeof next !== 'string' || next === '') return {};
  return followed.has(next) ? { loop: true } : { cursor: next };
}

/** Pages that repeat (a looping cursor) must not list an environment twice. */
function uniqueById(environments: GitlabEnvironment[]): GitlabEnvironment[] {
  const seen = new Set<string>();
  return environments.filter(e => !seen.has(e.id) && !!seen.add(e.id));
}

/**
 * Reads from GitLab's GraphQL API: the project and all its environments (one
 * page per round trip), asking only for fields the instance's `version` has.
 */
export class GitlabClient {
  constructor(
    private readonly instance: GitlabInstanceConfig,
    private readonly timeoutMs: number,
    private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly version?: string,
    private readonly options: { signal?: AbortSignal; maxBytes?: number } = {},
  ) {}

  private token(): string {
    if (!this.instance.token) {
      throw failure(
        'MISSING_TOKEN',
        `No token is configured for the GitLab instance ${this.instance.host}.`,
        {
          hint: 'Set gitlabEnv.instances[].token to a token with the read_api and k8s_proxy scopes.',
        },
      );
    }
    return this.instance.token;
  }

  /** One GraphQL operation; its `data`, or the typed failure of its errors. */
  async query(query: string, variables: Record<string, unknown>) {
    const token = this.token();
    const response = await this.limit(() =>
      requestUpstream({
        url: this.instance.graphqlUrl,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ query, variables }),
        timeoutMs: this.timeoutMs,
        signal: this.options.signal,
        maxBytes: this.options.maxBytes,
        upstream: `GitLab (${this.instance.host})`,
      }),
    );
    if (response.status === 401 || response.status === 403) {
      throw failure(
        'GITLAB_UNAUTHORIZED',
        `GitLab (${this.instance.host}) rejected the configured token (HTTP ${response.status}).`,
        {
          hint: 'The token may be expired, revoked or lack the read_api scope; replace gitlabEnv.instances[].token.',
          upstreamStatus: response.status,
        },
      );
    }
    if (response.status >= 500) {
      throw failure(
        'UPSTREAM_ERROR',
        `GitLab (${this.instance.host}) failed with HTTP ${response.status}.`,
        {
          upstreamStatus: response.status,
        },
      );
    }
    if (response.malformed || !isRecord(response.body)) {
      throw malformed('a body that is not GraphQL JSON');
    }
    const { data, errors } = response.body;
    if (!isRecord(data)) {
      const message = Array.isArray(errors) ? errors[0]?.message : undefined;
      throw failure(
        response.status === 200 ? 'UPSTREAM_MALFORMED' : 'UPSTREAM_ERROR',
        `GitLab (${this.instance.host}) refused the query${
          message ? `: ${message}` : ''
        }.`,
        { upstreamStatus: response.status },
      );
    }
    return data;
  }

  async listEnvironments(
    locator: ProjectLocator,
    states: EnvironmentState[],
  ): Promise<ProjectEnvironments> {
    const environments: GitlabEnvironment[] = [];
    const warnings: GitlabEnvError[] = [];
    const agentActivity: Record<string, AgentActivity> = {};
    let result: Pick<ProjectEnvironments, 'project'> | undefined;
    let after: string | undefined;
    const followed = new Set<string>();
    for (let page = 0; ; page++) {
      const data =
        'fullPath' in locator
          ? await this.query(byPath(this.version), {
              fullPath: locator.fullPath,
              states,
              after,
            })
          : await this.query(byId(this.version), {
              ids: [`gid://gitlab/Project/${locator.id}`],
              states,
              after,
            });
      const project =
        'fullPath' in locator ? data.project : data.projects?.nodes?.[0];
      if (!isRecord(project)) {
        const name =
          'fullPath' in locator ? locator.fullPath : `with id ${locator.id}`;
        throw failure(
          'PROJECT_NOT_FOUND',
          `GitLab (${this.instance.host}) has no project ${name}, or the configured token cannot see it.`,
          {
            hint: "Check the gitlab.com/project-slug or gitlab.com/project-id annotation, and that the token's user is a member of the project.",
          },
        );
      }
      result ??= {
        project: {
          instance: this.instance.host,
          id: idFromGid(String(project.id)),
          fullPath: String(project.fullPath),
          webUrl:
            optionalString(project.webUrl) ??
            `${this.instance.baseUrl}/${project.fullPath}`,
        },
      };
      const connection = project.environments;
      if (!isRecord(connection) || !Array.isArray(connection.nodes)) {
        throw malformed('a project without an environments list');
      }
      for (const node of connection.nodes) {
        if (!isRecord(node)) continue;
        const environment = checkEnvironmentValues(
          toEnvironment(node, this.instance.baseUrl),
        );
        environments.push(environment);
        if (environment.agent && isRecord(node.clusterAgent))
          agentActivity[environment.agent.id] = activityOf(node.clusterAgent);
      }
      const next = nextPage(connection, followed);
      if (!next.cursor && !next.loop) break;
      if (next.loop) {
        warnings.push({
          code: 'UPSTREAM_MALFORMED',
          message: `GitLab (${this.instance.host}) answered the environments of ${result?.project.fullPath} with a page cursor it had already sent (a pagination loop); showing the ${environments.length} environments read before it.`,
        });
        break;
      }
      if (page + 1 >= MAX_ENVIRONMENT_PAGES) {
        warnings.push({
          code: 'LIMIT_REACHED',
          message: `The project ${result?.project.fullPath} has more than ${environments.length} environments; showing the first ${environments.length}.`,
          hint: 'Narrow the environments with the gitlab-env/environments or gitlab-env/tiers annotation.',
        });
        break;
      }
      followed.add(next.cursor!);
      after = next.cursor;
    }
    return {
      ...result!,
      environments: uniqueById(environments),
      warnings,
      agentActivity,
    };
  }

  /**
   * Every agent shared through `user_access` with a project the token's
   * user is a member of, once each, with the projects that share it. These
   * are candidates: KAS alone decides (a group entry needs a direct group
   * membership, which this list cannot tell).
   */
  async userAccessAgents(): Promise<{
    /** `activity`: what GitLab shows the token's user of agentk's connection. */
    agents: Array<GitlabAgentRef & { activity: AgentActivity }>;
    warnings: GitlabEnvError[];
  }> {
    const agents = new Map<
      string,
      GitlabAgentRef & { activity: AgentActivity }
    >();
    const warnings: GitlabEnvError[] = [];
    const followed = new Set<string>();
    let after: string | undefined;
    for (let page = 0; ; page++) {
      const data = await this.query(USER_ACCESS_AGENTS, { after });
      const connection = data.projects;
      if (!isRecord(connection) || !Array.isArray(connection.nodes)) {
        throw malformed('a project list without nodes');
      }
      for (const project of connection.nodes) {
        const nodes = isRecord(project)
          ? project.userAccessAuthorizedAgents?.nodes
          : undefined;
        for (const node of Array.isArray(nodes) ? nodes : []) {
          const agent = isRecord(node) ? node.agent : undefined;
          if (!isRecord(agent) || typeof agent.id !== 'string') continue;
          const id = idFromGid(agent.id);
          if (!isNumericId(id) || agents.has(id)) continue;
          agents.set(id, {
            id,
            name: optionalString(agent.name) ?? id,
            webUrl:
              optionalString(agent.webPath) &&
              `${this.instance.baseUrl}${agent.webPath}`,
            configProject: optionalString(agent.project?.fullPath),
            activity: activityOf(agent),
          });
        }
      }
      const next = nextPage(connection, followed);
      if (!next.cursor && !next.loop) break;
      if (next.loop) {
        warnings.push({
          code: 'UPSTREAM_MALFORMED',
          message: `GitLab (${
            this.instance.host
          }) answered the token user's projects with a page cursor it had already sent (a pagination loop); listing the agents of the ${
            page + 1
          } pages read before it.`,
        });
        break;
      }
      if (page + 1 >= MAX_MEMBER_PROJECT_PAGES) {
        warnings.push({
          code: 'LIMIT_REACHED',
          message: `The token's user on ${
            this.instance.host
          } is a member of more than ${
            (page + 1) * 20
          } projects; agents shared only with later projects are left out.`,
          hint: 'Use a bot user that is a member of the projects and groups your agents share with, not of every project.',
        });
        break;
      }
      followed.add(next.cursor!);
      after = next.cursor;
    }
    return { agents: [...agents.values()], warnings };
  }

  /**
   * An environment's agent's connections and token use; undefined when
   * GitLab does not show the agent to the token's user.
   */
  async agentActivity(
    projectFullPath: string,
    environmentName: string,
  ): Promise<AgentActivity | undefined> {
    const data = await this.query(AGENT_ACTIVITY, {
      fullPath: projectFullPath,
      name: environmentName,
    });
    const agent = data.project?.environment?.clusterAgent;
    return isRecord(agent) ? activityOf(agent) : undefined;
  }
}
