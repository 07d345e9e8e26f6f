import {
  MetricsAvailability,
  PodMetricsObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError } from '../errors';
import type { KasClient } from '../transport/kasClient';
import { collectionPath } from '../validation';
import { isRecord } from '../validation/json';

const POD_METRICS = {
  group: 'metrics.k8s.io',
  version: 'v1beta1',
  plural: 'pods',
};

/** metrics.k8s.io's answer for a namespace: its PodMetrics, or why there are none. */
export type PodMetricsRead =
  | {
      metrics: MetricsAvailability & { available: true };
      items: PodMetricsObject[];
    }
  | { metrics: MetricsAvailability & { available: false }; items: [] };

const unavailable = (reason: string): PodMetricsRead => ({
  metrics: { available: false, reason },
  items: [],
});

/**
 * Lists the PodMetrics of a namespace through KAS, as `kubectl top pod`
 * does (`GET /apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods`, with the
 * environment's label selector): one request for every pod. A cluster
 * without the metrics API (no metrics-server) answers 404, which is a fact
 * about the cluster, not a failure; so are RBAC's refusal and an
 * aggregated API that does not answer. KAS-level failures (agent not
 * shared or not connected) throw, as every read's do.
 */
export async function listPodMetrics(
  kas: KasClient,
  namespace: string,
  labelSelector: string | undefined,
  agentName: string,
): Promise<PodMetricsRead> {
  const path = collectionPath(
    POD_METRICS,
    namespace,
    `GitLab's environment settings (namespace)`,
  );
  const query = labelSelector
    ? `?labelSelector=${encodeURIComponent(labelSelector)}`
    : '';
  let body: unknown;
  try {
    body = await kas.get(`${path}${query}`, 'pods.metrics.k8s.io');
  } catch (error) {
    const { code, upstreamStatus } = asGitlabEnvError(error);
    if (code === 'KIND_FORBIDDEN')
      return unavailable(
        `The cluster's RBAC does not let agent ${agentName} read pods.metrics.k8s.io, so CPU and memory usage cannot be shown. Grant the agent's service account list on pods in the metrics.k8s.io group.`,
      );
    if (code === 'UPSTREAM_ERROR' && upstreamStatus === 503)
      return unavailable(
        'The cluster has a metrics API (metrics.k8s.io), but metrics-server does not answer (HTTP 503). Check its pod in kube-system.',
      );
    throw error;
  }
  if (body === undefined)
    return unavailable(
      'This cluster has no metrics API (metrics.k8s.io): without metrics-server there is no CPU and memory usage to show, and `kubectl top pod` says "Metrics API not available". Install metrics-server in the cluster to see it.',
    );
  const items = isRecord(body) && Array.isArray(body.items) ? body.items : [];
  const pods = items.filter(isRecord) as PodMetricsObject[];
  const newest = pods
    .map(p => p.timestamp)
    .filter((t): t is string => typeof t === 'string')
    .sort()
    .pop();
  return {
    metrics: { available: true, window: pods[0]?.window, timestamp: newest },
    items: pods,
  };
}
