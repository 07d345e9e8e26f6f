import { HealthAssessment, KubernetesObject } from '../../../types';
import { findCondition, health } from '../../conditions';
import { specOf, statusOf } from '../../../k8s/objects';

/**
 * Cluster API Cluster (Argo CD's cluster.x-k8s.io/Cluster): paused, then
 * a False Ready condition (Degraded with its message), then the phase
 * (Failed is Degraded, Provisioned or a True Ready Healthy).
 */
export function capiClusterHealth(obj: KubernetesObject): HealthAssessment {
  if (specOf(obj).paused === true)
    return health('Suspended', 'Cluster is paused');
  const ready = findCondition(obj, 'Ready');
  if (ready?.status === 'False') return health('Degraded', ready.message);
  const phase = statusOf(obj).phase;
  if (phase === 'Failed') return health('Degraded');
  // Newer Cluster API versions report conditions rather than a phase.
  if (phase === 'Provisioned' || ready?.status === 'True')
    return health('Healthy', 'Cluster is running');
  return health('Progressing', 'Waiting for Cluster');
}
