import { GitlabAgentRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure, GitlabEnvFailure } from '../errors';
import { quote } from '../validation';
import { requestUpstream, UpstreamResponse } from './http';
import { isRecord } from './json';

export interface KasTarget {
  kasProxyUrl: string;
  token: string;
  agent: GitlabAgentRef;
}

/** What the client tells about the agent's tunnel, for the next request's timeout. */
export interface KasClientEvents {
  /** KAS answered for the agent (any status but a tunnel-search 502). */
  onAnswer?: () => void;
  /** A request ran out of time: the agent may be gone. */
  onTimeout?: () => void;
}

export function agentNotShared(agent: GitlabAgentRef): GitlabEnvFailure {
  const config = `${
    agent.configProject ? `${agent.configProject}: ` : ''
  }.gitlab/agents/${agent.name}/config.yaml`;
  return failure(
    'AGENT_NOT_SHARED',
    `The agent that deployed to this environment (${agent.name}) does not share its cluster with the portal's GitLab user: KAS refused the configured token. Ask the agent's administrators to cover that user under \`user_access\` in ${config}.`,
    {
      hint: `In ${config}, list under user_access a project the token's user is a Developer of, or a group it is a direct Developer member of (or a parent of such a group); KAS takes up to a minute to notice.`,
    },
  );
}

function statusMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * The last line of defence behind the path builders (see validation):
 * a path the builders made never has an empty, `.` or `..` segment or an
 * encoded separator, which `fetch` or a proxy could resolve into another
 * path than the one planned.
 */
function assertPlannedPath(path: string) {
  const [pathname] = path.split('?', 1);
  const segments = pathname.split('/').slice(1);
  if (
    !pathname.startsWith('/') ||
    segments.some(s => s === '' || s === '.' || s === '..') ||
    /%2f|%5c|%2e|\\/i.test(pathname)
  ) {
    throw failure(
      'INVALID_ENVIRONMENT_SETTING',
      `The backend refused to request the Kubernetes API path ${quote(
        pathname,
      )}: it is not a path it plans.`,
    );
  }
}

/**
 * Reads the Kubernetes API through KAS on behalf of the configured token,
 * `Authorization: Bearer pat:<agent-id>:<token>`. Only GETs, and only paths
 * the reader builds; nothing from the browser is forwarded.
 */
export class KasClient {
  constructor(
    private readonly target: KasTarget,
    private readonly timeoutMs: number,
    private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly options: { signal?: AbortSignal; maxBytes?: number } = {},
    private readonly events: KasClientEvents = {},
  ) {}

  /** GET a Kubernetes API path; 404 answers `undefined`, other failures throw. */
  async get(
    path: string,
    resource?: string,
    accept = 'application/json',
  ): Promise<unknown | undefined> {
    const { agent } = this.target;
    assertPlannedPath(path);
    const { signal, maxBytes } = this.options;
    const response = await this.limit(() =>
      this.request({
        url: `${this.target.kasProxyUrl}${path}`,
        signal,
        maxBytes,
        headers: {
          authorization: `Bearer pat:${agent.id}:${this.target.token}`,
          accept,
        },
        timeoutMs: this.timeoutMs,
        upstream: 'KAS',
        // 502 means agentk is not connected: asking again right away won't help.
        retryStatuses: [500, 503, 504],
        // KAS held a timed-out request in its 20 s tunnel search: another
        // attempt would wait as long again.
        retryTimeouts: false,
        onConnectionError: () =>
          failure(
            'KAS_UNAVAILABLE',
            'The GitLab agent server (KAS) cannot be reached.',
            {
              hint: 'Check that KAS is enabled on the instance and that gitlabEnv.instances[].kasProxyUrl is right.',
            },
          ),
      }),
    );
    return this.interpret(response, resource);
  }

  private async request(
    request: Parameters<typeof requestUpstream>[0],
  ): Promise<UpstreamResponse> {
    try {
      const response = await requestUpstream(request);
      if (response.status !== 502) this.events.onAnswer?.();
      return response;
    } catch (error) {
      if (
        error instanceof GitlabEnvFailure &&
        error.detail.code === 'UPSTREAM_TIMEOUT'
      ) {
        this.events.onTimeout?.();
      }
      throw error;
    }
  }

  private interpret(response: UpstreamResponse, resource?: string) {
    const { agent } = this.target;
    const { status } = response;
    if (
      status === 401 &&
      response.headers.get('gitlab-unauthorized') === 'true'
    ) {
      throw agentNotShared(agent);
    }
    if (status === 403) {
      throw failure(
        'KIND_FORBIDDEN',
        `The cluster's RBAC does not let agent ${agent.name} read ${
          resource ?? 'this resource'
        }.`,
        {
          resource,
          upstreamStatus: status,
          hint: "Grant the agent's service account (or impersonated user) list on this resource.",
        },
      );
    }
    if (status === 502) {
      throw failure(
        'AGENT_NOT_CONNECTED',
        `The agent ${agent.name} is not connected to GitLab: KAS found no tunnel to its agentk.`,
        {
          upstreamStatus: status,
          hint: "Check that agentk runs in the cluster and can reach KAS (its pod's logs say why not); the agent's page in GitLab shows its connections.",
        },
      );
    }
    if (status === 404) {
      // The API server says NotFound with a Status, or for a group it does
      // not serve with plain text; a JSON 404 of another shape comes from
      // GitLab in front of KAS: the agent server is off or not at this URL.
      if (!isRecord(response.body) || response.body.kind === 'Status')
        return undefined;
      throw failure(
        'KAS_UNAVAILABLE',
        `GitLab answered ${
          resource ?? 'a cluster read'
        } with 404 instead of the Kubernetes API: the agent server (KAS) is disabled or not at the configured proxy URL.`,
        {
          upstreamStatus: status,
          resource,
          hint: 'Enable KAS on the instance, or set gitlabEnv.instances[].kasProxyUrl.',
        },
      );
    }
    if (status >= 500) {
      throw failure('UPSTREAM_ERROR', `KAS failed with HTTP ${status}.`, {
        upstreamStatus: status,
        resource,
      });
    }
    if (status < 200 || status >= 300) {
      const message = statusMessage(response.body);
      throw failure(
        'KIND_FAILED',
        `Reading ${resource ?? 'from the cluster'} failed with HTTP ${status}${
          message ? `: ${message}` : ''
        }.`,
        { upstreamStatus: status, resource },
      );
    }
    if (
      response.malformed ||
      typeof response.body !== 'object' ||
      response.body === null
    ) {
      throw failure(
        'UPSTREAM_MALFORMED',
        `KAS answered ${resource ?? 'a read'} with ${
          response.malformed ?? 'a body that is not a JSON object'
        }.`,
        {
          resource,
        },
      );
    }
    return response.body;
  }
}
