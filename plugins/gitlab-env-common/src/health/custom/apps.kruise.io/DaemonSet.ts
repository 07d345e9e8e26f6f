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
 * OpenKruise Advanced DaemonSet (Argo CD's apps.kruise.io/DaemonSet):
 * paused, held at its partition, every scheduled pod updated and
 * available (Healthy), or every one updated and unavailable (Degraded);
 * anything between is still rolling out.
 */
export function advancedDaemonSetHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!observedCurrent(obj)) return waiting();
  const status = statusOf(obj);
  const rollingUpdate = rollingUpdateOf(obj);
  if (
    rollingUpdate.paused === true ||
    status.updatedNumberScheduled === undefined
  )
    return health('Suspended', 'Daemonset is paused');
  const desired = status.desiredNumberScheduled;
  const partition = partitionOf(rollingUpdate.partition, Number(desired) || 0);
  if (partition !== 0 && Number(obj.metadata?.generation) > 1) {
    if (Number(status.updatedNumberScheduled) > Number(desired) - partition)
      return health('Suspended', 'Daemonset needs manual intervention');
    return waiting();
  }
  const allUpdated = status.updatedNumberScheduled === desired;
  if (allUpdated && status.numberAvailable === desired)
    return health('Healthy', 'All Daemonset workloads are ready and updated');
  if (allUpdated && status.numberUnavailable === desired)
    return health('Degraded', 'Some pods are not ready or available');
  return waiting();
}
