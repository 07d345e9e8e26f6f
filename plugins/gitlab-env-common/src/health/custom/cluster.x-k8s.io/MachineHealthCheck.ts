import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/**
 * Cluster API MachineHealthCheck (Argo CD's cluster.x-k8s.io/MachineHealthCheck):
 * every expected machine healthy, or not.
 */
export function capiMachineHealthCheckHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const status = statusOf(obj);
  if (status.currentHealthy === undefined || status.currentHealthy === null)
    return health('Progressing');
  return health(
    status.expectedMachines === status.currentHealthy ? 'Healthy' : 'Degraded',
  );
}
