import { createServer, IncomingMessage, ServerResponse } from 'http';
import { createServer as createHttpsServer } from 'https';
import { AddressInfo } from 'net';
import { Controllers } from './cluster/controllers';
import { setImages } from './cluster/setImages';
import { ClusterStore } from './cluster/store';
import {
  ClusterKnobs,
  DEFAULT_CLUSTER_KNOBS,
  isActionForbidden,
} from './clusterKnobs';
import { DEFAULT_FAULTS, FaultKnobs, isForbiddenBy } from './faults';
import { GitlabDirectory } from './gitlab/access';
import { GraphqlInternalError, runGraphql } from './gitlab/graphql';
import { DeployRunner } from './gitlab/jobs';
import { handleRest } from './gitlab/rest';
import {
  anyDataFault,
  applyDataFaults,
  FaultedRequest,
  isFaultToken,
  isLoopToken,
} from './http/dataFaults';
import {
  gitlabTokenOf,
  markBodyFault,
  markBodyTransform,
  readBody,
  sendJson,
} from './http/respond';
import { AuthorizationCache, handleKas } from './kas/proxy';
import { AgentPresenceTracker } from './kas/agentPresence';
import {
  AgentTunnels,
  REAL_TUNNEL_POOL,
  TunnelPoolOptions,
} from './kas/tunnels';
import { ADMIN_PREFIX, handleAdmin } from './admin';
import { KubeApi } from './kube/apiServer';
import { failure, sendStatus } from './kube/status';
import { loadDefaultScenario } from './scenario/load';
import { Scenario, ScenarioAgent } from './scenario/types';
import { SimulatedCluster, simulatedCluster } from './simulatedCluster';
import { ServerCertificate, selfSignedCertificate } from './tls/selfSigned';

export interface SimulatorOptions {
  /** 0 = random free port (default 0). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default: loadDefaultScenario(). */
  scenario?: Scenario;
  faults?: Partial<FaultKnobs>;
  /** Watch, controller and write-RBAC behaviour of the clusters (`src/clusterKnobs.ts`). */
  clusterKnobs?: Partial<ClusterKnobs>;
  /**
   * Serve HTTPS (kubectl sends no bearer token over plain HTTP): `true` makes a
   * self-signed certificate for the host at start; or give a PEM cert and key.
   */
  tls?: boolean | ServerCertificate;
  /** Serve the knobs and drivers over HTTP at `/-/simulator/…` (`src/admin.ts`); default off. */
  adminApi?: boolean;
  /** Default: silent. */
  logger?: { info(msg: string): void; warn(msg: string): void };
  /** Interval between streamed log lines with `follow=true` (default 1000 ms). */
  logFollowIntervalMs?: number;
  /**
   * How often simulated time advances (crash-looping pods restart again),
   * producing MODIFIED watch events; default 30000 ms, 0 turns it off.
   */
  tickMs?: number;
  /**
   * KAS's tunnel search and agentk's tunnel pool (default: as real KAS and
   * agentk, a 20 s search). Tests shorten `findTimeoutMs`.
   */
  kasTunnels?: Partial<TunnelPoolOptions>;
  /** The clock of KAS's authorization cache (default Date.now). */
  now?: () => number;
  /**
   * How long a retried deploy job stays pending, then running, before it
   * succeeds and its images reach the cluster (default 1500 ms each).
   */
  deployJobPhaseMs?: number;
}

export interface SimulatorStats {
  requests: number;
  graphql: number;
  rest: number;
  kas: number;
  byPath: Record<string, number>;
  /** Bytes of repository file content written to clients (raw bodies and the JSON API's content). */
  repositoryFileBytes: number;
  /** Per agent name, the most agentk tunnels in use at once. */
  peakTunnelsInUse: Record<string, number>;
  /** Per agent name, requests that waited in KAS for a tunnel and the longest wait. */
  tunnelWaits: Record<string, { waited: number; maxWaitMs: number }>;
}

export interface RunningSimulator {
  /** GitLab base URL, e.g. http://127.0.0.1:41234. */
  url: string;
  graphqlUrl: string;
  apiUrl: string;
  /** `${url}/-/kubernetes-agent/k8s-proxy`, no trailing slash. */
  kasProxyUrl: string;
  scenario: Scenario;
  /** The PEM certificate clients must trust when serving HTTPS. */
  certificate?: string;
  setFaults(faults: Partial<FaultKnobs>): void;
  setClusterKnobs(knobs: Partial<ClusterKnobs>): void;
  /** The simulated cluster behind an agent (by name or id), to drive and observe it in tests. */
  cluster(agent: string | number): SimulatedCluster;
  /** Ends every open watch and followed log (abruptly by default, like a dropped agentk tunnel). */
  dropWatches(options?: { abrupt?: boolean }): number;
  stats(): SimulatorStats;
  resetStats(): void;
  close(): Promise<void>;
}

const KAS_PREFIX = '/-/kubernetes-agent/k8s-proxy';

/**
 * REST's answer to a token it cannot use (`lib/api/api_guard.rb`: an expired
 * or revoked token is an OAuth `invalid_token` with its own description; a
 * token GitLab has no record of, a plain 401).
 */
function restTokenRefusal(invalid: 'unknown' | 'expired' | 'revoked') {
  if (invalid === 'expired')
    return {
      error: 'invalid_token',
      error_description:
        'Token is expired. You can either do re-authorization or token refresh.',
    };
  if (invalid === 'revoked')
    return {
      error: 'invalid_token',
      error_description:
        'Token was revoked. You have to re-authorize from the user.',
    };
  return { message: '401 Unauthorized' };
}

function emptyStats(): SimulatorStats {
  return {
    requests: 0,
    graphql: 0,
    rest: 0,
    kas: 0,
    byPath: {},
    repositoryFileBytes: 0,
    peakTunnelsInUse: {},
    tunnelWaits: {},
  };
}

function surfaceOf(pathname: string): 'graphql' | 'rest' | 'kas' | undefined {
  if (pathname === '/api/graphql') return 'graphql';
  if (pathname.startsWith('/api/v4/')) return 'rest';
  if (pathname.startsWith('/-/kubernetes-agent/')) return 'kas';
  return undefined;
}

function sendServerError(
  res: ServerResponse,
  surface: ReturnType<typeof surfaceOf>,
) {
  if (surface === 'kas') {
    sendStatus(
      res,
      failure(503, 'GitLab Agent Server: Service Unavailable: simulated fault'),
    );
  } else if (surface === 'graphql') {
    sendJson(res, 500, { errors: [{ message: 'Internal server error' }] });
  } else {
    sendJson(res, 500, { message: '500 Internal Server Error' });
  }
}

/** Starts a GitLab + KAS simulator on a real socket. */
export async function startGitlabSimulator(
  options: SimulatorOptions = {},
): Promise<RunningSimulator> {
  const scenario = options.scenario ?? loadDefaultScenario();
  const logger = options.logger ?? { info: () => {}, warn: () => {} };
  let faults: FaultKnobs = { ...DEFAULT_FAULTS, ...options.faults };
  let clusterKnobs: ClusterKnobs = {
    ...DEFAULT_CLUSTER_KNOBS,
    ...options.clusterKnobs,
  };
  let stats = emptyStats();
  const streams = new Set<() => void>();
  const directory = new GitlabDirectory(scenario);
  const tunnelOptions = { ...REAL_TUNNEL_POOL, ...options.kasTunnels };
  let tunnels = new Map<number, AgentTunnels>();
  const tunnelsOf = (agent: { id: number; name: string }) => {
    let pool = tunnels.get(agent.id);
    if (!pool) {
      pool = new AgentTunnels(tunnelOptions, true);
      tunnels.set(agent.id, pool);
    }
    return pool;
  };
  const authorizations = new AuthorizationCache(options.now);
  const presence = new AgentPresenceTracker(
    () => faults.disconnectedAgents,
    options.now,
  );
  presence.update(scenario.agents);
  const forbiddenKinds = () => faults.forbiddenKinds;
  const knobs = () => clusterKnobs;
  const namespacedRbacOnly = () => faults.namespacedRbacOnly;
  const clusters = new Map<string, KubeApi>();
  for (const cluster of scenario.clusters) {
    const store = new ClusterStore(cluster.objects);
    store.historyLimit = knobs().watchHistoryLimit;
    for (const object of store.unserved) {
      logger.warn(
        `cluster ${cluster.agent}: no resource serves ${object.apiVersion} ${object.kind} (${object.metadata.name}); add its CRD`,
      );
    }
    const agent = scenario.agents.find(a => a.name === cluster.agent);
    clusters.set(cluster.agent, {
      store,
      controllers: new Controllers(store, cluster.agent, knobs),
      kubernetesVersion: cluster.kubernetesVersion,
      isForbidden: (resource, subresource, namespace, verb) =>
        (namespacedRbacOnly() &&
          resource.namespaced &&
          namespace === undefined) ||
        isForbiddenBy(
          [...forbiddenKinds(), ...(agent?.forbiddenResources ?? [])],
          resource.group,
          resource.plural,
          subresource,
        ) ||
        isActionForbidden(
          [...knobs().forbiddenActions, ...(agent?.forbiddenActions ?? [])],
          verb,
          resource.group,
          resource.plural,
          subresource,
        ),
      watches: new Set(),
      knobs,
      trackStream: stop => {
        streams.add(stop);
        return () => streams.delete(stop);
      },
      logFollowIntervalMs: options.logFollowIntervalMs ?? 1000,
      metricsApi: () => knobs().metricsApi && agent?.metricsServer !== false,
    });
  }

  // A retried deploy job that succeeds applies its deployment's images to the
  // environment's namespace in the agent's cluster.
  const runner = new DeployRunner(directory, {
    jobPhaseMs: options.deployJobPhaseMs ?? 1500,
    onDeployed: (_project, env, deployment) => {
      const cluster = env.agent ? clusters.get(env.agent) : undefined;
      if (cluster && env.kubernetesNamespace && deployment.images.length)
        setImages(
          cluster.store,
          cluster.controllers,
          env.kubernetesNamespace,
          deployment.images,
        );
    },
  });

  let urls: { url: string; kasProxyUrl: string } = { url: '', kasProxyUrl: '' };
  const churns = new Map<string, () => void>();
  const dropWatches = ({ abrupt = true }: { abrupt?: boolean } = {}) => {
    let dropped = 0;
    clusters.forEach(c =>
      [...c.watches].forEach(w => {
        w.drop(abrupt);
        dropped += 1;
      }),
    );
    return dropped;
  };
  const setClusterKnobs = (next: Partial<ClusterKnobs>) => {
    clusterKnobs = { ...clusterKnobs, ...next };
    clusters.forEach(c => {
      c.store.historyLimit = clusterKnobs.watchHistoryLimit;
    });
  };
  // Streams run through the agent's tunnel: when agentk disconnects (or KAS goes away), they break.
  const cutStreamsOfUnreachableAgents = () => {
    for (const agent of scenario.agents) {
      const unreachable =
        !faults.kasEnabled ||
        faults.disconnectedAgents.includes(String(agent.id)) ||
        faults.disconnectedAgents.includes(agent.name);
      if (unreachable)
        [...(clusters.get(agent.name)?.watches ?? [])].forEach(w =>
          w.drop(true),
        );
    }
  };
  const admin = {
    setFaults: (next: Partial<FaultKnobs>) => {
      faults = { ...faults, ...next };
      presence.update(scenario.agents);
      cutStreamsOfUnreachableAgents();
    },
    setClusterKnobs,
    knobs: () => ({ faults, clusterKnobs }),
    cluster: (agent: string) => simulatedCluster(scenario, clusters, agent),
    dropWatches,
  };

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    faulted: FaultedRequest,
  ) {
    const pathname = url.pathname;
    const surface = surfaceOf(pathname);
    if (surface === 'kas') {
      if (!faults.kasEnabled) {
        sendJson(res, 404, { error: '404 Not Found' });
        return;
      }
      if (!pathname.startsWith(`${KAS_PREFIX}/`)) {
        sendStatus(
          res,
          failure(
            400,
            'GitLab Agent Server: Bad request: URL does not start with expected prefix',
          ),
        );
        return;
      }
      await handleKas(req, res, url, pathname.slice(KAS_PREFIX.length), {
        directory,
        clusters,
        gitlabOrigin: new URL(urls.url).origin,
        kasVersion: scenario.instance.kasVersion,
        disconnectedAgents: () => faults.disconnectedAgents,
        tunnels: tunnelsOf,
        authorizations,
      });
      return;
    }
    if (pathname === '/-/readiness' || pathname === '/-/health') {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    if (!surface) {
      sendJson(res, 404, { error: '404 Not Found' });
      return;
    }
    const auth = directory.authenticate(gitlabTokenOf(req));
    if ('invalid' in auth) {
      if (surface === 'graphql') {
        // GraphqlController renders authentication failures in the GraphQL error shape.
        sendJson(res, 401, { errors: [{ message: 'Invalid token' }] });
      } else {
        sendJson(res, 401, restTokenRefusal(auth.invalid));
      }
      return;
    }
    const context = {
      directory,
      caller: auth.caller,
      baseUrl: urls.url,
      kasProxyUrl: urls.kasProxyUrl,
      kasEnabled: faults.kasEnabled,
      agentPresence: (agent: ScenarioAgent) => presence.of(agent),
      countFileBytes: (bytes: number) => {
        stats.repositoryFileBytes += bytes;
      },
      runner,
    };
    if (surface === 'rest') {
      handleRest(req, res, url, pathname.slice('/api/v4'.length), context);
      return;
    }
    if (auth.caller && !directory.hasScope(auth.caller, 'api', 'read_api')) {
      sendJson(res, 403, { errors: [{ message: 'Insufficient scope' }] });
      return;
    }
    let body: any;
    try {
      body =
        req.method === 'POST'
          ? JSON.parse((await readBody(req)) || '{}')
          : {
              query: url.searchParams.get('query'),
              variables: url.searchParams.get('variables'),
              operationName: url.searchParams.get('operationName'),
            };
      // Like GitLab, variables may also arrive as a JSON-encoded string.
      for (const op of Array.isArray(body) ? body : [body]) {
        if (typeof op?.variables === 'string')
          op.variables = JSON.parse(op.variables || 'null');
        // A looping cursor (loopingCursor fault) is served the first page again.
        if (isLoopToken(op?.variables?.after)) {
          faulted.token = op.variables.after;
          delete op.variables.after;
        }
      }
    } catch (error) {
      // GraphqlController answers unparsable variables with 422.
      sendJson(res, 422, { errors: [{ message: (error as Error).message }] });
      return;
    }
    // An array body is a multiplexed batch: each operation gets its own limits.
    let result;
    try {
      result = Array.isArray(body)
        ? await Promise.all(body.map(op => runGraphql(op, context)))
        : await runGraphql(body, context);
    } catch (error) {
      if (!(error instanceof GraphqlInternalError)) throw error;
      // GraphqlController rescues what a resolver raised with this answer.
      sendJson(res, 500, { errors: [{ message: 'Internal server error' }] });
      return;
    }
    sendJson(res, 200, result);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', urls.url || 'http://localhost');
    if (options.adminApi && url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      // Controls are not GitLab traffic: no faults, not counted.
      await handleAdmin(req, res, url, admin, churns);
      return;
    }
    const surface = surfaceOf(url.pathname);
    stats.requests += 1;
    if (surface) stats[surface] += 1;
    const key = `${req.method} ${url.pathname}`;
    stats.byPath[key] = (stats.byPath[key] ?? 0) + 1;
    const current = faults;
    if (current.latencyMs > 0) {
      await new Promise(resolve => setTimeout(resolve, current.latencyMs));
    }
    const methodFaulted =
      current.faultMethods.length === 0 ||
      current.faultMethods.includes(req.method ?? 'GET');
    if (
      current.errorRate > 0 &&
      methodFaulted &&
      Math.random() < current.errorRate
    ) {
      switch (current.errorKind) {
        case 'reset':
          req.socket.destroy();
          return;
        case '5xx':
          sendServerError(res, surface);
          return;
        default:
          markBodyFault(res, current.errorKind);
      }
    }
    const faulted: FaultedRequest = {
      surface,
      limit: Number(url.searchParams.get('limit') ?? 0),
    };
    if (anyDataFault(current)) {
      const token = url.searchParams.get('continue');
      if (surface === 'kas' && isFaultToken(token)) {
        // The faults' tokens mean nothing to the API server: it serves the
        // first page again, and the fault answers from its own list.
        faulted.token = token;
        url.searchParams.delete('continue');
      }
      markBodyTransform(res, body => applyDataFaults(body, current, faulted));
    }
    await route(req, res, url, faulted);
  }

  const host = options.host ?? '127.0.0.1';
  let tls: ServerCertificate | undefined;
  if (options.tls === true) {
    tls = selfSignedCertificate([
      ...new Set([host, 'localhost', '127.0.0.1', '::1']),
    ]);
  } else if (options.tls) {
    tls = options.tls;
  }
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(error => {
      logger.warn(
        `simulator: ${req.method} ${req.url} failed: ${
          (error as Error).stack ?? error
        }`,
      );
      if (!res.headersSent) {
        sendJson(res, 500, { message: '500 Internal Server Error' });
      } else {
        res.destroy();
      }
    });
  };
  const server = tls
    ? createHttpsServer({ cert: tls.cert, key: tls.key }, listener)
    : createServer(listener);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const tickMs = options.tickMs ?? 30_000;
  const ticker =
    tickMs > 0
      ? setInterval(
          () => clusters.forEach(cluster => cluster.controllers.advance()),
          tickMs,
        )
      : undefined;
  // The ticker alone must not keep a process (or a test run) alive.
  ticker?.unref();

  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const url = `${tls ? 'https' : 'http'}://${hostPart}:${port}`;
  urls = { url, kasProxyUrl: `${url}${KAS_PREFIX}` };
  logger.info(
    `GitLab simulator (scenario ${scenario.name}) listening on ${url}`,
  );

  return {
    url,
    graphqlUrl: `${url}/api/graphql`,
    apiUrl: `${url}/api/v4`,
    kasProxyUrl: urls.kasProxyUrl,
    scenario,
    certificate: tls?.cert,
    setFaults: admin.setFaults,
    setClusterKnobs,
    cluster: agent => simulatedCluster(scenario, clusters, agent),
    dropWatches,
    stats: () => ({
      ...stats,
      byPath: { ...stats.byPath },
      peakTunnelsInUse: Object.fromEntries(
        scenario.agents
          .filter(a => tunnels.has(a.id))
          .map(a => [a.name, tunnels.get(a.id)!.peakBusy]),
      ),
      tunnelWaits: Object.fromEntries(
        scenario.agents
          .filter(a => tunnels.has(a.id))
          .map(a => {
            const { waited, maxWaitMs } = tunnels.get(a.id)!;
            return [a.name, { waited, maxWaitMs }];
          }),
      ),
    }),
    resetStats() {
      stats = emptyStats();
      // A fresh measurement starts from agentk's idle pool, as after a restart.
      tunnels = new Map();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(ticker);
        runner.dispose();
        clusters.forEach(c => c.controllers.dispose());
        churns.forEach(stop => stop());
        [...streams].forEach(stop => stop());
        server.close(error => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
