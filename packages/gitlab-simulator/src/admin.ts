import { IncomingMessage, ServerResponse } from 'http';
import { ClusterKnobs } from './clusterKnobs';
import { FaultKnobs } from './faults';
import { readBody, sendJson } from './http/respond';
import { SimulatedCluster } from './simulatedCluster';

/**
 * `/-/simulator/…`: the knobs and drivers over HTTP, for tests and benchmarks
 * that run the simulator in another process (the demo portal's browser tests).
 * Not part of GitLab; served only with the `adminApi` option.
 */
export interface AdminDeps {
  setFaults(faults: Partial<FaultKnobs>): void;
  setClusterKnobs(knobs: Partial<ClusterKnobs>): void;
  knobs(): { faults: FaultKnobs; clusterKnobs: ClusterKnobs };
  cluster(agent: string): SimulatedCluster;
  dropWatches(options: { abrupt: boolean }): number;
}

export const ADMIN_PREFIX = '/-/simulator';

export async function handleAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: AdminDeps,
  churns: Map<string, () => void>,
) {
  const path = url.pathname.slice(ADMIN_PREFIX.length);
  const method = req.method ?? 'GET';
  const body = async () => {
    const text = await readBody(req);
    return text ? JSON.parse(text) : {};
  };
  try {
    if (path === '/knobs' && method === 'GET') {
      sendJson(res, 200, deps.knobs());
      return;
    }
    if (path === '/knobs' && method === 'PATCH') {
      const { faults, clusterKnobs } = await body();
      if (faults) deps.setFaults(faults);
      if (clusterKnobs) deps.setClusterKnobs(clusterKnobs);
      sendJson(res, 200, deps.knobs());
      return;
    }
    if (path === '/watches/drop' && method === 'POST') {
      const abrupt = url.searchParams.get('abrupt') !== 'false';
      sendJson(res, 200, { dropped: deps.dropWatches({ abrupt }) });
      return;
    }
    const match = /^\/clusters\/([^/]+)\/(expire|crash|churn)$/.exec(path);
    if (match) {
      const [, agent, action] = match;
      const cluster = deps.cluster(decodeURIComponent(agent));
      if (action === 'expire' && method === 'POST') {
        cluster.expireResourceVersions({
          openWatches: url.searchParams.get('openWatches') === 'true',
        });
        sendJson(res, 200, { expired: true });
        return;
      }
      if (action === 'crash' && method === 'POST') {
        const { namespace, pod, loop, container } = await body();
        cluster.crashPod(namespace, pod, { loop, container });
        sendJson(res, 200, { crashed: `${namespace}/${pod}` });
        return;
      }
      if (action === 'churn' && (method === 'POST' || method === 'DELETE')) {
        churns.get(agent)?.();
        churns.delete(agent);
        if (method === 'POST') {
          const { perSecond, namespaces, restarts } = await body();
          churns.set(
            agent,
            cluster.startChurn(Number(perSecond), {
              namespaces,
              restarts: restarts === true,
            }),
          );
        }
        sendJson(res, 200, { churning: churns.has(agent) });
        return;
      }
    }
    sendJson(res, 404, {
      error: `no simulator control at ${method} ${url.pathname}`,
    });
  } catch (error) {
    sendJson(res, 400, { error: (error as Error).message });
  }
}
