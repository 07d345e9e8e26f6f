import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

/** Rook CephObjectStore (Argo CD's ceph.rook.io/CephObjectStore): its phase, and endpoint. */
export function cephObjectStoreHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status))
    return health('Progressing', 'Waiting for status to be reported');
  const status = statusOf(obj);
  let result: HealthAssessment['status'] = 'Progressing';
  let message = 'Waiting for status to be reported';
  if (typeof status.phase === 'string') {
    message = `Ceph object store phase is ${status.phase}`;
    if (status.phase === 'Ready') result = 'Healthy';
    else if (status.phase === 'Failure') result = 'Degraded';
  }
  const endpoint = isRecord(status.info) ? status.info.endpoint : undefined;
  if (typeof endpoint === 'string' && endpoint)
    message = `${message} - endpoint: ${endpoint}`;
  return health(result, message);
}
