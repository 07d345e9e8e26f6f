import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf, str } from '../../../k8s/objects';

/**
 * Rook CephCluster (Argo CD's ceph.rook.io/CephCluster): Ceph's own health
 * (HEALTH_OK, HEALTH_WARN, HEALTH_ERR with its details, sorted by check),
 * then, when Ceph is fine, the cluster's state; the status message last.
 */
export function cephClusterHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status))
    return health('Progressing', 'Waiting for status to be reported');
  const status = statusOf(obj);
  const parts: string[] = [];
  let result: HealthAssessment['status'] = 'Progressing';
  const ceph = isRecord(status.ceph) ? status.ceph : {};
  if (typeof ceph.health === 'string') {
    let details = '';
    if (isRecord(ceph.details)) {
      const messages = Object.keys(ceph.details)
        .sort()
        .map(key => ceph.details[key])
        .filter(d => isRecord(d) && typeof d.message === 'string')
        .map(d => d.message as string);
      if (messages.length > 0) details = ` (${messages.join('; ')})`;
    }
    if (ceph.health === 'HEALTH_ERR' || ceph.health === 'HEALTH_WARN')
      result = 'Degraded';
    else if (ceph.health === 'HEALTH_OK') result = 'Healthy';
    parts.push(`Ceph health is ${ceph.health}${details}`);
  }
  if (typeof status.state === 'string' && result === 'Healthy') {
    parts.push(`Ceph cluster state is ${status.state}`);
    if (status.state === 'Error') result = 'Degraded';
    else if (status.state !== 'Created' && status.state !== 'Connected')
      result = 'Progressing';
  }
  const message = str(status.message);
  if (message) parts.push(message);
  return health(result, parts.join(' - '));
}
