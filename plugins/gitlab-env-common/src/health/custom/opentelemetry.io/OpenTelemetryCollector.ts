import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf } from '../../../k8s/objects';

/**
 * OpenTelemetry Collector (Argo CD's opentelemetry.io/OpenTelemetryCollector):
 * the operator's `status.scale.statusReplicas` ("ready/total"); a
 * DaemonSet collector on no eligible node (0/0) and a sidecar collector
 * (no workload of its own) are Healthy.
 */
export function openTelemetryCollectorHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!isRecord(obj.status))
    return health('Progressing', 'Waiting for OpenTelemetry Collector status');
  const scale = statusOf(obj).scale;
  const replicas = isRecord(scale) ? scale.statusReplicas : undefined;
  const mode = specOf(obj).mode;
  if (replicas === undefined || replicas === null) {
    if (mode === 'sidecar')
      return health('Healthy', 'Collector is running in sidecar mode');
    return health('Progressing', 'Scale status not available');
  }
  const parsed =
    typeof replicas === 'string' ? /(\d+)\/(\d+)/.exec(replicas) : null;
  if (!parsed)
    return health(
      'Progressing',
      `Unable to parse replica status: ${String(replicas)}`,
    );
  const ready = Number(parsed[1]);
  const total = Number(parsed[2]);
  if (ready === 0) {
    if (mode === 'daemonset' && total === 0)
      return health('Healthy', 'DaemonSet has no schedulable nodes (0/0)');
    return health('Degraded', 'No replicas are ready');
  }
  if (ready === total) return health('Healthy', 'All replicas are ready');
  return health('Progressing', 'Replicas are starting up');
}
