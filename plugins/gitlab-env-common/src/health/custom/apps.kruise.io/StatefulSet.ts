import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';
import {
  observedCurrent,
  partitionOf,
  rollingUpdateOf,
  waiting,
} from './workloads';

/**
 * OpenKruise Advanced StatefulSet (Argo CD's apps.kruise.io/StatefulSet):
 * as the CloneSet, with its partition under `rollingUpdate`.
 */
export function advancedStatefulSetHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!observedCurrent(obj)) return waiting();
  const status = statusOf(obj);
  const rollingUpdate = rollingUpdateOf(obj);
  if (
    rollingUpdate.paused === true ||
    status.updatedAvailableReplicas === undefined
  )
    return health('Suspended', 'Statefulset is paused');
  const replicas = Number(status.replicas) || 0;
  const partition = partitionOf(rollingUpdate.partition, replicas);
  if (partition !== 0 && Number(obj.metadata?.generation) > 1) {
    if (Number(status.updatedReplicas) > replicas - partition)
      return health('Suspended', 'Statefulset needs manual intervention');
    return waiting();
  }
  if (status.updatedAvailableReplicas === status.replicas)
    return health('Healthy', 'All Statefulset workloads are ready and updated');
  return health('Degraded', 'Some replicas are not ready or available');
}
