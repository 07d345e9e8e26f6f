import { HealthAssessment, KubernetesObject } from '../../../types';
import { findCondition, health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/**
 * Cluster API Machine (Argo CD's cluster.x-k8s.io/Machine): Running is
 * Healthy; otherwise the phase's status with a False Ready condition's
 * message (or "Condition is unknown").
 */
export function capiMachineHealth(obj: KubernetesObject): HealthAssessment {
  const phase = statusOf(obj).phase;
  if (phase === 'Running') return health('Healthy', 'Machine is running');
  const ready = findCondition(obj, 'Ready');
  const message =
    ready?.status === 'False' ? ready.message : 'Condition is unknown';
  return health(phase === 'Failed' ? 'Degraded' : 'Progressing', message);
}
