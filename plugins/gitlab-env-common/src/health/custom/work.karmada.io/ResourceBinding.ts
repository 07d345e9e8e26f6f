import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf } from '../../../k8s/objects';

const INSUFFICIENT = 'Current resource status is insufficient';
const UNHEALTHY = 'Current resource status is unhealthy';

/**
 * Karmada ResourceBinding and ClusterResourceBinding (Argo CD's
 * work.karmada.io scripts): one aggregated status per scheduled cluster;
 * any Unhealthy, or Unknown and not applied, is Degraded; Healthy only
 * once every scheduled cluster reported.
 */
export function karmadaBindingHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status)) return health('Progressing', INSUFFICIENT);
  const clusters = specOf(obj).clusters;
  const aggregated = statusOf(obj).aggregatedStatus;
  if (
    !Array.isArray(clusters) ||
    clusters.length === 0 ||
    !Array.isArray(aggregated) ||
    aggregated.length !== clusters.length
  )
    return health('Progressing', INSUFFICIENT);
  for (const cluster of aggregated) {
    if (!isRecord(cluster)) continue;
    if (cluster.health === 'Unhealthy') return health('Degraded', UNHEALTHY);
    if (cluster.health === 'Unknown' && cluster.applied !== true)
      return health('Degraded', UNHEALTHY);
  }
  return health('Healthy');
}
