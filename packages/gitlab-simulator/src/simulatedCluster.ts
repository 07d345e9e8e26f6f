import { Controllers } from './cluster/controllers';
import { ClusterStore } from './cluster/store';
import { KubeApi } from './kube/apiServer';
import { Scenario } from './scenario/types';
import { startChurn } from './cluster/churn';

/** One simulated cluster, driven directly by tests and benchmarks (not through the API). */
export interface SimulatedCluster {
  store: ClusterStore;
  controllers: Controllers;
  /**
   * Forces `410 Gone`: forgets the change history (an etcd compaction), so a
   * watch or a list `continue` from any earlier resourceVersion expires.
   * `openWatches` also ends open watches with the 410 ERROR event.
   */
  expireResourceVersions(options?: { openWatches?: boolean }): void;
  /** A container of the pod dies (and keeps dying with `loop`, the default). */
  crashPod(
    namespace: string,
    name: string,
    options?: { loop?: boolean; container?: string },
  ): void;
  /**
   * Makes `perSecond` object changes per second (pod annotations
   * `simulator.gitlab-env/changed-at`, round robin) in `namespaces` (default
   * all) until the returned function is called; with `restarts`, each
   * change is also a container restart (a change the page draws).
   */
  startChurn(
    perSecond: number,
    options?: { namespaces?: string[]; restarts?: boolean },
  ): () => void;
  /** Watch requests open right now, for tests and benchmarks that count upstream connections. */
  openWatches(): number;
}

export function simulatedCluster(
  scenario: Scenario,
  clusters: Map<string, KubeApi>,
  agent: string | number,
): SimulatedCluster {
  const name =
    typeof agent === 'number' || /^\d+$/.test(agent)
      ? scenario.agents.find(a => a.id === Number(agent))?.name
      : agent;
  const api = name ? clusters.get(name) : undefined;
  if (!api) throw new Error(`no simulated cluster behind agent ${agent}`);
  return {
    store: api.store,
    controllers: api.controllers,
    expireResourceVersions({ openWatches = false } = {}) {
      api.store.compact();
      if (openWatches) [...api.watches].forEach(w => w.expire());
    },
    crashPod(namespace, pod, options) {
      if (!api.controllers.crashPod(namespace, pod, options))
        throw new Error(`no pod ${namespace}/${pod} in cluster ${name}`);
    },
    startChurn: (perSecond, options) =>
      startChurn(api.store, perSecond, options),
    openWatches: () => api.watches.size,
  };
}
