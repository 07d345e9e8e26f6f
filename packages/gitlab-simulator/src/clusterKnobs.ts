/**
 * Knobs for the live behaviour of the simulated clusters (watches, controllers,
 * RBAC for writes). Kept apart from the request-level fault knobs in
 * `faults.ts`; both are set through the running simulator.
 */
export interface ClusterKnobs {
  /**
   * Interval between BOOKMARK events on watches that allow them. kube-apiserver's
   * watch cache sends one about every minute (KEP-956 "Watch bookmark",
   * `staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go`).
   */
  bookmarkIntervalMs: number;
  /** Changes kept for watches resuming from a resourceVersion; older ones answer 410 Gone. */
  watchHistoryLimit: number;
  /**
   * How long a new pod stays Pending/ContainerCreating before kubelet reports
   * it Running and Ready (0 = at once). Rollouts wait for readiness, so with a
   * delay they advance step by step like the deployment controller's.
   */
  podStartMs: number;
  /**
   * Grace period of a deleted pod: it shows Terminating (deletionTimestamp set)
   * this long before it is removed (0 = removed at once; `gracePeriodSeconds`
   * on the request overrides it, in seconds).
   */
  podTerminationMs: number;
  /**
   * How long after a manual scale a HorizontalPodAutoscaler targeting the
   * workload puts the replica count back (the controller's sync period).
   */
  hpaSyncMs: number;
  /**
   * Writes agentk's service account may not make, as `<verb> <resource>`:
   * `delete pods`, `patch apps/deployments`, `update deployments/scale`, `* secrets`.
   * Reads are governed by `forbiddenKinds` (and the scenario's `forbidden`).
   */
  forbiddenActions: string[];
  /**
   * false: no cluster runs metrics-server, whatever the scenario says:
   * discovery leaves `metrics.k8s.io` out and its paths answer 404 (a
   * scenario agent can also say `metricsServer: false`).
   */
  metricsApi: boolean;
}

export const DEFAULT_CLUSTER_KNOBS: ClusterKnobs = {
  bookmarkIntervalMs: 60_000,
  watchHistoryLimit: 10_000,
  podStartMs: 0,
  podTerminationMs: 0,
  hpaSyncMs: 15_000,
  forbiddenActions: [],
  metricsApi: true,
};

/** Does a `forbiddenActions` entry deny this verb on this resource (or subresource)? */
export function isActionForbidden(
  entries: string[],
  verb: string,
  group: string,
  plural: string,
  subresource?: string,
): boolean {
  return entries.some(entry => {
    const [entryVerb, what = ''] = entry.trim().split(/\s+/);
    if (entryVerb !== '*' && entryVerb !== verb) return false;
    const [first, second] = what.split('/');
    if (second === undefined) return first === plural && !subresource;
    if (first === plural) return second === subresource;
    return first === group && second === plural && !subresource;
  });
}
