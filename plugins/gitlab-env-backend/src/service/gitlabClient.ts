import {
  DEPLOYMENT_TIERS,
  DeploymentTier,
  EnvironmentState,
  GitlabEnvError,
  GitlabEnvironment,
  GitlabProjectRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { failure } from '../errors';
import { checkEnvironmentValues } from '../validation';
import { requestUpstream } from './http';
import { isRecord } from './json';

/** How the entity names its project. */
export type ProjectLocator = { fullPath: string } | { id: string };

export interface ProjectEnvironments {
  project: GitlabProjectRef;
  environments: GitlabEnvironment[];
  /** KAS proxy URL from GitLab's metadata; undefined when KAS is disabled. */
  kasProxyUrl?: string;
  /** Why the list may be incomplete (a pagination loop, the page limit). */
  warnings: GitlabEnvError[];
}

/** 100 environments a page: 10,000 environments is far past any real project. */
const MAX_ENVIRONMENT_PAGES = 100;

const PROJECT_FIELDS = /* GraphQL */ `
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
        kubernetesNamespace
        fluxResourcePath
        clusterAgent {
          id
          name
          webPath
          project {
            fullPath
          }
        }
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

/** Asked for in the first page's round trip only. */
const KAS_METADATA = /* GraphQL */ `
  metadata @include(if: $first) { kas { enabled externalK8sProxyUrl } }
`;

const BY_PATH = /* GraphQL */ `
  query GitlabEnvByPath(
    $fullPath: ID!
    $states: [String!]
    $after: String
    $first: Boolean!
  ) {
    ${KAS_METADATA}
    project(fullPath: $fullPath) {
      ...ProjectEnvironments
    }
  }
  ${PROJECT_FIELDS}
`;

const BY_ID = /* GraphQL */ `
  query GitlabEnvById(
    $ids: [ID!]
    $states: [String!]
    $after: String
    $first: Boolean!
  ) {
    ${KAS_METADATA}
    projects(ids: $ids, first: 1) {
      nodes {
        ...ProjectEnvironments
      }
    }
  }
  ${PROJECT_FIELDS}
`;

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
            name: String(agent.name),
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

/** Pages that repeat (a looping cursor) must not list an environment twice. */
function uniqueById(environments: GitlabEnvironment[]): GitlabEnvironment[] {
  const seen = new Set<string>();
  return environments.filter(e => !seen.has(e.id) && !!seen.add(e.id));
}

/**
 * Reads from GitLab's GraphQL API: the project, all its environments (one
 * page per round trip) and, in the first round trip, the instance metadata.
 */
export class GitlabClient {
  constructor(
    private readonly instance: GitlabInstanceConfig,
    private readonly timeoutMs: number,
    private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>,
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

  private async query(query: string, variables: Record<string, unknown>) {
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
    let result:
      | Omit<ProjectEnvironments, 'environments' | 'warnings'>
      | undefined;
    let after: string | undefined;
    const followed = new Set<string>();
    for (let page = 0; ; page++) {
      const first = page === 0;
      const data =
        'fullPath' in locator
          ? await this.query(BY_PATH, {
              fullPath: locator.fullPath,
              states,
              after,
              first,
            })
          : await this.query(BY_ID, {
              ids: [`gid://gitlab/Project/${locator.id}`],
              states,
              after,
              first,
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
      if (first) {
        const kas = isRecord(data.metadata?.kas)
          ? data.metadata.kas
          : undefined;
        result = {
          project: {
            instance: this.instance.host,
            id: idFromGid(String(project.id)),
            fullPath: String(project.fullPath),
            webUrl:
              optionalString(project.webUrl) ??
              `${this.instance.baseUrl}/${project.fullPath}`,
          },
          kasProxyUrl: kas?.enabled
            ? optionalString(kas.externalK8sProxyUrl)
            : undefined,
        };
      }
      const connection = project.environments;
      if (!isRecord(connection) || !Array.isArray(connection.nodes)) {
        throw malformed('a project without an environments list');
      }
      for (const node of connection.nodes) {
        if (isRecord(node))
          environments.push(
            checkEnvironmentValues(toEnvironment(node, this.instance.baseUrl)),
          );
      }
      const next = connection.pageInfo?.hasNextPage
        ? connection.pageInfo.endCursor
        : undefined;
      if (typeof next !== 'string' || next === '') break;
      if (followed.has(next) || next === after) {
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
      followed.add(next);
      after = next;
    }
    return { ...result!, environments: uniqueById(environments), warnings };
  }
}
