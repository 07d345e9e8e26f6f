import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';

/** Cluster API ClusterResourceSet (Argo CD's addons.cluster.x-k8s.io/ClusterResourceSet): ResourcesApplied. */
export function clusterResourceSetHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const applied = conditionsOf(obj).find(
    c =>
      c.type === 'ResourcesApplied' &&
      (c.status === 'True' || c.status === 'False'),
  );
  if (applied?.status === 'True')
    return health('Healthy', 'cluster resource set is applied');
  if (applied) return health('Degraded', applied.message);
  return health('Progressing', 'Initializing cluster resource set');
}
