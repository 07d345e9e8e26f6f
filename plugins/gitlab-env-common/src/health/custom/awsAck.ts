import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

/**
 * AWS Controllers for Kubernetes (`*.services.k8s.aws`): a terminal
 * condition degrades; a Ready condition that is False is still
 * Progressing (ACK retries), True is Healthy; first decisive one wins.
 */
export function awsAckHealth(obj: KubernetesObject): HealthAssessment {
  for (const condition of conditionsOf(obj)) {
    if (condition.type === 'ACK.Terminal' && condition.status === 'True')
      return health('Degraded', condition.message);
    if (condition.type === 'Ready' && condition.status === 'False')
      return health('Progressing', condition.message);
    if (condition.type === 'Ready' && condition.status === 'True')
      return health('Healthy');
  }
  return health('Progressing', 'Waiting for resource to be ready');
}
