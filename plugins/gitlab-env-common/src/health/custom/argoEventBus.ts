import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

/** argoproj.io EventBus (Argo Events): its first decided `Deployed` condition. */
export function eventBusHealth(obj: KubernetesObject): HealthAssessment {
  for (const condition of conditionsOf(obj)) {
    if (condition.type !== 'Deployed') continue;
    const message = condition.message || condition.reason;
    if (condition.status === 'False') return health('Degraded', message);
    if (condition.status === 'True') return health('Healthy', message);
  }
  return health('Progressing', 'Waiting for initialization');
}
