import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

const WAITING = 'Waiting for 3scale APIManager status...';

/**
 * 3scale APIManager (Argo CD's apps.3scale.net/APIManager): every
 * deployment ready (none starting or stopped), else the Available
 * condition, Degraded with its reason.
 */
export function apiManagerHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status)) return health('Progressing', WAITING);
  const deployments = statusOf(obj).deployments;
  if (
    isRecord(deployments) &&
    deployments.ready !== undefined &&
    deployments.starting === undefined &&
    deployments.stopped === undefined
  )
    return health('Healthy', '3scale APIManager is available');
  for (const c of conditionsOf(obj)) {
    if (c.type !== 'Available') continue;
    if (c.status === 'True')
      return health('Healthy', '3scale APIManager is available');
    if (c.reason)
      return health('Degraded', `3scale APIManager is degraded: ${c.reason}`);
  }
  return health('Progressing', WAITING);
}
