import { randomBytes } from 'crypto';
import { IncomingMessage, ServerResponse } from 'http';
import { GitlabDirectory } from '../gitlab/access';
import { handleKubeRequest, KubeApi } from '../kube/apiServer';
import { failure, KubeStatus, sendStatus } from '../kube/status';
import { ScenarioAgent } from '../scenario/types';
import { AgentTunnels, TunnelNotFoundError } from './tunnels';
import { isAgentDisconnected } from './agentPresence';

/**
 * KAS's Kubernetes API proxy (`/-/kubernetes-agent/k8s-proxy/`): CORS and
 * credential checks, GitLab's authorization of the user for the agent, the
 * tunnel to agentk, then the cluster's own API server.
 * Behaviour follows gitlab-agent `internal/module/kubernetes_api/server/proxy.go`
 * (see the contracts note, §3.2–§3.4).
 */

export interface KasDeps {
  directory: GitlabDirectory;
  /** The cluster API server behind each agent, by agent name. */
  clusters: Map<string, KubeApi>;
  gitlabOrigin: string;
  kasVersion: string;
  /** Agent ids (or names) answering as if agentk were not connected. */
  disconnectedAgents: () => string[];
  /** agentk's tunnels of an agent (see tunnels.ts). */
  tunnels: (agent: ScenarioAgent) => AgentTunnels;
  authorizations: AuthorizationCache;
}

/**
 * KAS caches GitLab's answer to "may this token use this agent" for a minute,
 * a refusal for 10 s (gitlab-agent `internal/module/kubernetes_api/server/defaulting.go`,
 * `factory.go`): a `user_access` change takes up to a minute to show.
 */
export class AuthorizationCache {
  private readonly entries = new Map<
    string,
    { allowed: boolean; until: number }
  >();

  constructor(private readonly now: () => number = Date.now) {}

  get(agentId: number, secret: string, decide: () => boolean): boolean {
    const key = `${agentId}:${secret}`;
    const now = this.now();
    const cached = this.entries.get(key);
    if (cached && cached.until > now) return cached.allowed;
    const allowed = decide();
    this.entries.set(key, {
      allowed,
      until: now + (allowed ? 60_000 : 10_000),
    });
    return allowed;
  }
}

function traceId(): string {
  return randomBytes(16).toString('hex');
}

function kasError(code: number, message: string): KubeStatus {
  return failure(
    code,
    `GitLab Agent Server: ${message}. Trace ID: ${traceId()}`,
  );
}

function unauthorized(res: ServerResponse, detail?: string) {
  // Every 401 KAS writes carries this header, so clients can tell it from a cluster 401.
  sendStatus(
    res,
    kasError(401, detail ? `Unauthorized: ${detail}` : 'Unauthorized'),
    { 'Gitlab-Unauthorized': 'true' },
  );
}

type Credentials =
  | { agentId: number; secret: string }
  | { error: string }
  | { ci: true };

function parseAuthorization(req: IncomingMessage): Credentials {
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() === 'authorization')
      values.push(req.rawHeaders[i + 1]);
  }
  // Texts as KAS writes them (gitlab-agent internal/module/kubernetes_api/server/proxy.go,
  // getAuthorizationInfoFromRequest): no header at all is "no valid credentials
  // provided"; a header it cannot parse starts with "Authorization header: ".
  if (values.length === 0) return { error: 'no valid credentials provided' };
  if (values.length > 1)
    return { error: 'Authorization header: expecting a single header' };
  const match = values[0].match(/^Bearer (.*)$/);
  if (!match) return { error: 'Authorization header: expecting Bearer token' };
  const [type, id, ...secretParts] = match[1].split(':');
  const secret = secretParts.join(':');
  if (id === undefined) return { error: 'Authorization header: invalid value' };
  if (type !== 'pat' && type !== 'ci')
    return { error: `Authorization header: unknown token type "${type}"` };
  if (!/^-?\d+$/.test(id))
    return { error: 'Authorization header: failed to parse agent id' };
  if (!secret) return { error: 'Authorization header: empty token' };
  if (type === 'ci') return { ci: true };
  return { agentId: Number(id), secret };
}

/** Handles a request under the proxy prefix; `path` is what follows the prefix (starting with `/`). */
export async function handleKas(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
  deps: KasDeps,
) {
  const origin = req.headers.origin;
  if (origin && origin !== deps.gitlabOrigin) {
    res.writeHead(403, { 'Content-Length': 0 });
    res.end();
    return;
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(200, {
      ...(origin
        ? {
            'Access-Control-Allow-Origin': origin,
            'Access-Control-Allow-Credentials': 'true',
          }
        : {}),
      'Access-Control-Allow-Methods':
        'GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH',
      'Access-Control-Allow-Headers': String(
        req.headers['access-control-request-headers'] ?? '',
      ),
      'Access-Control-Max-Age': '86400',
      'Content-Length': 0,
    });
    res.end();
    return;
  }
  const credentials = parseAuthorization(req);
  if ('error' in credentials) {
    unauthorized(res, credentials.error);
    return;
  }
  if ('ci' in credentials) {
    // The simulator runs no CI jobs, so no job token is ever valid.
    unauthorized(res, 'CI job token');
    return;
  }
  const auth = deps.directory.authenticate(credentials.secret);
  if ('invalid' in auth && auth.invalid === 'unknown') {
    // Rails answers 400 for a token string that matches no token; KAS 16.5 turns that into 500 (contracts §3.4).
    sendStatus(res, kasError(500, 'Failed to authorize user session'));
    return;
  }
  const caller = 'caller' in auth ? auth.caller : undefined;
  const agent = deps.directory.agentById(credentials.agentId);
  // Rails answers an expired or revoked token, a token without k8s_proxy, an
  // unknown agent and every user_access refusal alike, and KAS turns them all
  // into one 401 without detail so agent ids cannot be enumerated
  // (lib/api/helpers/kubernetes/agent_helpers.rb, proxy.go authorizeProxyUser).
  const allowed = deps.authorizations.get(
    credentials.agentId,
    credentials.secret,
    () =>
      !!caller &&
      !!agent &&
      deps.directory.hasScope(caller, 'k8s_proxy') &&
      deps.directory.userAccessCovers(caller.user, agent),
  );
  if (!allowed || !agent) {
    unauthorized(res);
    return;
  }
  const tunnels = deps.tunnels(agent);
  tunnels.setConnected(!isAgentDisconnected(agent, deps.disconnectedAgents()));
  let release: () => void;
  try {
    release = await tunnels.acquire();
  } catch (error) {
    if (!(error instanceof TunnelNotFoundError)) throw error;
    // The tunnel search's DeadlineExceeded, as KAS's HTTP->gRPC bridge reports it
    // (internal/tool/grpctool/inbound_http_to_outbound_grpc.go).
    sendStatus(
      res,
      kasError(
        502,
        `HTTP->gRPC: failed to read gRPC response: rpc error: code = DeadlineExceeded desc = ${error.message}`,
      ),
    );
    return;
  }
  try {
    const { roundTripMs } = tunnels.options;
    if (roundTripMs > 0) {
      await new Promise(resolve => setTimeout(resolve, roundTripMs));
    }
    const cluster = deps.clusters.get(agent.name);
    if (!cluster) {
      sendStatus(
        res,
        kasError(
          502,
          `HTTP->gRPC: agent ${agent.id} has no cluster in this scenario`,
        ),
      );
      return;
    }
    res.setHeader('Via', `gRPC/1.0 gitlab-kas/${deps.kasVersion}/simulated`);
    await handleKubeRequest(cluster, req, res, path, url.searchParams);
  } finally {
    // Streams (watch, follow) hold their tunnel until they end or break.
    if (res.writableEnded) release();
    else {
      res.once('finish', release);
      res.once('close', release);
    }
  }
}
