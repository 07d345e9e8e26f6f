import { GitlabAgentRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure, GitlabEnvFailure } from '../errors';
import { quote } from '../validation';
import {
  openUpstreamStream,
  requestUpstream,
  UpstreamRequest,
  UpstreamResponse,
} from './http';
import { isRecord, statusMessage } from '../validation/json';

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
    `The agent that deployed to this environment (${agent.name}, configured in \`${config}\`) does not share its cluster with the portal's GitLab user: KAS refused the configured token.`,
    {
      hint: `Ask the agent's administrators to list under \`user_access\` in that file a project the token's user is a Developer of, or a group it is a direct Developer member of (or a parent of such a group); KAS takes up to a minute to notice.`,
    },
  );
}

function kasUnreachable(): GitlabEnvFailure {
  return failure(
    'KAS_UNAVAILABLE',
    'The GitLab agent server (KAS) cannot be reached.',
    {
      hint: 'Check that KAS is enabled on the instance and that gitlabEnv.instances[].kasProxyUrl is right.',
    },
  );
}

export function agentNotConnected(agent: GitlabAgentRef): GitlabEnvFailure {
  return failure(
    'AGENT_NOT_CONNECTED',
    `The agent ${agent.name} is not connected to GitLab: KAS found no tunnel to its agentk.`,
    {
      upstreamStatus: 502,
      hint: "Check that agentk runs in the cluster and can reach KAS (its pod's logs say why not); the agent's page in GitLab shows its connections.",
    },
  );
}

function kasNotFound(status: number, resource?: string): GitlabEnvFailure {
  return failure(
    'KAS_UNAVAILABLE',
    `GitLab answered ${
      resource ?? 'a cluster request'
    } with 404 instead of the Kubernetes API: the agent server (KAS) is disabled or not at the configured proxy URL.`,
    {
      upstreamStatus: status,
      resource,
      hint: 'Enable KAS on the instance, or set gitlabEnv.instances[].kasProxyUrl.',
    },
  );
}

function parseWatchLine(line: string, resource?: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw failure(
      'UPSTREAM_MALFORMED',
      `A watch event of ${resource ?? 'the cluster'} is not JSON.`,
      { resource },
    );
  }
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

/** A write to the Kubernetes API; see KasClient.send. */
export interface KasWrite {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The JSON body, serialised by the client. */
  body?: unknown;
  /** For PATCH: `application/merge-patch+json`, `application/json-patch+json`, ... */
  contentType?: string;
  /** The kubectl command that shows the object, for when the write's outcome is unknown. */
  checkWith: string;
}

/**
 * Connection failures that happen before a request is sent (nothing
 * reached the API server); any other ends a write in doubt.
 */
const BEFORE_SENDING = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorCode(cause: unknown): string | undefined {
  for (let error = cause, depth = 0; error && depth < 4; depth++) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    error = (error as { cause?: unknown }).cause;
  }
  return undefined;
}

function writeOutcomeUnknown(write: KasWrite, why: string): GitlabEnvFailure {
  return failure(
    'WRITE_OUTCOME_UNKNOWN',
    `The connection to the cluster through KAS ${why} after the ${write.method} was sent: the change may or may not have been applied.`,
    {
      hint: `Check the object before trying again: ${write.checkWith}`,
    },
  );
}

/** The largest single watch event accepted; past it the watch fails with LIMIT_REACHED. */
const MAX_WATCH_EVENT_BYTES = 4 * 1024 * 1024;

/**
 * Talks to the Kubernetes API through KAS on behalf of the configured token,
 * `Authorization: Bearer pat:<agent-id>:<token>`: reads (`get`), long-lived
 * streams (`stream`, `watch`) and writes (`send`), only on paths the backend
 * builds; nothing from the browser is forwarded.
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
    assertPlannedPath(path);
    const { signal, maxBytes } = this.options;
    const response = await this.limit(() =>
      this.request({
        ...this.base(path, accept, signal, maxBytes),
        // 502 means agentk is not connected: asking again right away won't help.
        retryStatuses: [500, 503, 504],
        // KAS held a timed-out request in its 20 s tunnel search: another
        // attempt would wait as long again.
        retryTimeouts: false,
      }),
    );
    return this.interpret(response, resource);
  }

  /**
   * A write, never retried (a repeated POST or DELETE is not the same
   * request). KAS-level failures throw (agent not shared or not connected,
   * KAS unreachable before anything was sent); a connection that drops or
   * a timeout after the request went out is WRITE_OUTCOME_UNKNOWN, with
   * the command to check the object. The API server's own answer (403,
   * 404, 409, 422, ...) is returned for the caller to map to what the
   * action means.
   */
  async send(write: KasWrite): Promise<UpstreamResponse> {
    assertPlannedPath(write.path);
    const { signal, maxBytes } = this.options;
    const response = await this.limit(() =>
      this.request({
        ...this.base(write.path, 'application/json', signal, maxBytes),
        method: write.method,
        headers: {
          ...this.headers('application/json'),
          ...(write.body === undefined
            ? {}
            : { 'content-type': write.contentType ?? 'application/json' }),
        },
        body: write.body === undefined ? undefined : JSON.stringify(write.body),
        retries: 0,
        onConnectionError: cause =>
          BEFORE_SENDING.has(errorCode(cause) ?? '')
            ? kasUnreachable()
            : writeOutcomeUnknown(write, 'dropped'),
      }).catch(error => {
        if (
          error instanceof GitlabEnvFailure &&
          error.detail.code === 'UPSTREAM_TIMEOUT'
        )
          throw writeOutcomeUnknown(write, 'timed out');
        throw error;
      }),
    );
    this.interpretTransport(response);
    return response;
  }

  /**
   * Opens a long-lived GET (logs, a watch) and returns its body unread.
   * It takes no slot of the agent's read limit (it would hold it for the
   * stream's life); failures before the body are interpreted as `get`'s.
   */
  async stream(
    path: string,
    resource?: string,
    accept = 'application/json',
  ): Promise<ReadableStream<Uint8Array>> {
    const opened = await this.openStream(path, accept);
    if ('stream' in opened) return opened.stream;
    this.interpret(opened.refused, resource);
    throw failure(
      'UPSTREAM_MALFORMED',
      `KAS answered ${resource ?? 'a stream'} with HTTP ${
        opened.refused.status
      } and no body.`,
      { resource, upstreamStatus: opened.refused.status },
    );
  }

  /**
   * stream, except that the API server's refusal (403, 404, 400, ...) is
   * returned for the caller to interpret (a log read means something else
   * by a 400 than a list); KAS-level failures still throw.
   */
  async openStream(
    path: string,
    accept = 'application/json',
  ): Promise<
    { stream: ReadableStream<Uint8Array> } | { refused: UpstreamResponse }
  > {
    assertPlannedPath(path);
    const { signal, maxBytes } = this.options;
    const opened = await openUpstreamStream(
      this.base(path, accept, signal, maxBytes),
    ).catch(error => {
      if (
        error instanceof GitlabEnvFailure &&
        error.detail.code === 'UPSTREAM_TIMEOUT'
      ) {
        this.events.onTimeout?.();
      }
      throw error;
    });
    if (opened.status !== 502) this.events.onAnswer?.();
    if (opened.stream) return { stream: opened.stream };
    this.interpretTransport(opened);
    return { refused: opened };
  }

  /**
   * A Kubernetes watch (`?watch=1`): yields each event object as the API
   * server sends it, one JSON object per line, until the server ends the
   * stream or the client's signal does. An event that is not JSON ends the
   * watch with UPSTREAM_MALFORMED; one past the size bound with
   * LIMIT_REACHED.
   */
  async *watch(
    path: string,
    resource?: string,
    /** Told once the API server accepted the watch, before any event. */
    onOpen?: () => void,
  ): AsyncGenerator<unknown> {
    const stream = await this.stream(path, resource);
    onOpen?.();
    const reader = stream.getReader();
    // Ends a pending read at once, whether or not the transport notices.
    const stop = () => reader.cancel().catch(() => undefined);
    this.options.signal?.addEventListener('abort', stop, { once: true });
    // Ended while the answer's headers were on their way: no event will tell.
    if (this.options.signal?.aborted) stop();
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let pending = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        if (pending.length > MAX_WATCH_EVENT_BYTES && !pending.includes('\n')) {
          throw failure(
            'LIMIT_REACHED',
            `A watch event of ${
              resource ?? 'the cluster'
            } is larger than ${MAX_WATCH_EVENT_BYTES} bytes.`,
            { resource },
          );
        }
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          if (line.trim()) yield parseWatchLine(line, resource);
        }
      }
      const rest = pending.trim();
      if (rest) yield parseWatchLine(rest, resource);
    } catch (error) {
      if (error instanceof GitlabEnvFailure) throw error;
      if (this.options.signal?.aborted) return;
      throw failure(
        'UPSTREAM_ERROR',
        `The watch of ${resource ?? 'the cluster'} through KAS broke off.`,
        { resource },
      );
    } finally {
      this.options.signal?.removeEventListener('abort', stop);
      stop();
    }
  }

  private headers(accept: string): Record<string, string> {
    return {
      authorization: `Bearer pat:${this.target.agent.id}:${this.target.token}`,
      accept,
    };
  }

  private base(
    path: string,
    accept: string,
    signal?: AbortSignal,
    maxBytes?: number,
  ): UpstreamRequest {
    return {
      url: `${this.target.kasProxyUrl}${path}`,
      signal,
      maxBytes,
      headers: this.headers(accept),
      timeoutMs: this.timeoutMs,
      upstream: 'KAS',
      onConnectionError: kasUnreachable,
    };
  }

  /** Failures of KAS or the tunnel, which say nothing about the object. */
  private interpretTransport(response: UpstreamResponse) {
    const { agent } = this.target;
    if (
      response.status === 401 &&
      response.headers.get('gitlab-unauthorized') === 'true'
    ) {
      throw agentNotShared(agent);
    }
    if (response.status === 502) throw agentNotConnected(agent);
    if (
      response.status === 404 &&
      isRecord(response.body) &&
      response.body.kind !== 'Status'
    ) {
      throw kasNotFound(response.status);
    }
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
    if (status === 502) throw agentNotConnected(agent);
    if (status === 404) {
      // The API server says NotFound with a Status, or for a group it does
      // not serve with plain text; a JSON 404 of another shape comes from
      // GitLab in front of KAS: the agent server is off or not at this URL.
      if (!isRecord(response.body) || response.body.kind === 'Status')
        return undefined;
      throw kasNotFound(status, resource);
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
