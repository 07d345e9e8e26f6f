import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { specOf, statusOf } from '../../../k8s/objects';

/**
 * Cluster API MachineDeployment (Argo CD's cluster.x-k8s.io/MachineDeployment):
 * paused; Running with every replica updated and ready is Healthy;
 * scaling is in progress; Failed is Degraded.
 */
export function capiMachineDeploymentHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (specOf(obj).paused === true)
    return health('Suspended', 'MachineDeployment is paused');
  const status = statusOf(obj);
  switch (status.phase) {
    case 'Running':
      if (
        status.replicas === status.updatedReplicas &&
        status.replicas === status.readyReplicas
      )
        return health('Healthy', 'Machines are running under this deployment');
      break;
    case 'ScalingUp':
      return health('Progressing', 'Cluster is spawning machines');
    case 'ScalingDown':
      return health('Progressing', 'Cluster is stopping machines');
    case 'Failed':
      return health('Degraded', 'MachineDeployment is failed');
    default:
      break;
  }
  return health('Progressing', 'Waiting for machines');
}
