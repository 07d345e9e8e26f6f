import { randomBytes } from 'crypto';
import { IncomingMessage, ServerResponse } from 'http';
import { GitlabDirectory } from '../gitlab/access';
import { handleKubeRequest, KubeApi } from '../kube/apiServer';
import { failure, KubeStatus, sendStatus } from '../kube/status';
import { ScenarioAgent } from '../scenario/types';

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
  if (values.length === 0)
    return { error: 'no credentials: missing Authorization header' };
  if (values.length > 1)
    return { error: 'authorization header: expecting exactly one value' };
  const match = values[0].match(/^Bearer (.*)$/);
  if (!match) return { error: 'authorization header: expecting Bearer token' };
  const [type, id, ...secretParts] = match[1].split(':');
  const secret = secretParts.join(':');
  if (id === undefined) return { error: 'authorization header: invalid value' };
  if (type !== 'pat' && type !== 'ci')
    return { error: `authorization header: unknown token type "${type}"` };
  if (!/^-?\d+$/.test(id))
    return { error: `authorization header: invalid agent id "${id}"` };
  if (!secret) return { error: 'authorization header: empty token' };
  if (type === 'ci') return { ci: true };
  return { agentId: Number(id), secret };
}

function isDisconnected(agent: ScenarioAgent, deps: KasDeps): boolean {
  const knob = deps.disconnectedAgents();
  return (
    !agent.connected ||
    knob.includes(String(agent.id)) ||
    knob.includes(agent.name)
  );
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
  // Identical answers for every refusal, so agent ids cannot be enumerated.
  if (
    !caller ||
    !agent ||
    !deps.directory.hasScope(caller, 'k8s_proxy') ||
    !deps.directory.userAccessCovers(caller.user, agent)
  ) {
    unauthorized(res);
    return;
  }
  if (isDisconnected(agent, deps)) {
    sendStatus(
      res,
      kasError(
        502,
        `HTTP->gRPC: failed to read HTTP response: rpc error: code = Unavailable desc = no agentk connected for agent id ${agent.id}`,
      ),
    );
    return;
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
}
