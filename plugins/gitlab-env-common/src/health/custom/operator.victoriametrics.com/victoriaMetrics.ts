import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf, str } from '../../../k8s/objects';

const WAITING = 'Waiting for the operator to reconcile';

/**
 * Every kind of the VictoriaMetrics operator (Argo CD's wildcard
 * operator.victoriametrics.com/_): the observed generation, then
 * `status.updateStatus` (operational, expanding, paused, failed) with the
 * operator's reason.
 */
export function victoriaMetricsHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status)) return health('Progressing', WAITING);
  const status = statusOf(obj);
  const generation = obj.metadata?.generation;
  if (
    generation !== undefined &&
    status.observedGeneration !== undefined &&
    status.observedGeneration !== generation
  )
    return health('Progressing', WAITING);
  const reason = str(status.reason) || undefined;
  switch (status.updateStatus) {
    case 'operational':
      return health('Healthy', 'All components are operational');
    case 'expanding':
      return health('Progressing', reason ?? 'Reconciliation in progress');
    case 'paused':
      return health('Suspended', reason ?? 'Reconciliation is paused');
    case 'failed':
      return health('Degraded', reason ?? 'Reconciliation failed');
    default:
      return health('Progressing', 'Waiting for the operator to report status');
  }
}
