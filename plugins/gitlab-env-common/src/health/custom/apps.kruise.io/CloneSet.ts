import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf } from '../../../k8s/objects';
import { observedCurrent, partitionOf, waiting } from './workloads';

/**
 * OpenKruise CloneSet (Argo CD's apps.kruise.io/CloneSet): paused, a
 * partitioned rollout that reached its partition (waits for a person),
 * all replicas updated and available, or not.
 */
export function cloneSetHealth(obj: KubernetesObject): HealthAssessment {
  if (!observedCurrent(obj)) return waiting();
  const status = statusOf(obj);
  const strategy = isRecord(specOf(obj).updateStrategy)
    ? specOf(obj).updateStrategy
    : {};
  if (strategy.paused === true || status.updatedAvailableReplicas === undefined)
    return health('Suspended', 'Cloneset is paused');
  const replicas = status.replicas;
  const partition = partitionOf(strategy.partition, Number(replicas) || 0);
  if (partition !== 0 && Number(obj.metadata?.generation) > 1) {
    if (status.updatedReplicas >= status.expectedUpdatedReplicas)
      return health('Suspended', 'Cloneset needs manual intervention');
    return waiting();
  }
  if (status.updatedAvailableReplicas === replicas)
    return health('Healthy', 'All Cloneset workloads are ready and updated');
  return health('Degraded', 'Some replicas are not ready or available');
}
