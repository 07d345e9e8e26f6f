import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

export function podDisruptionBudgetHealth(
  obj: KubernetesObject,
): HealthAssessment {
  let result = health('Progressing', 'Waiting for status');
  for (const condition of conditionsOf(obj)) {
    if (
      condition.status === 'False' &&
      condition.reason !== 'InsufficientPods'
    ) {
      return health(
        'Degraded',
        `PodDisruptionBudget has ${condition.reason ?? ''}`,
      );
    }
    result = health(
      'Healthy',
      `PodDisruptionBudget has ${condition.reason ?? ''}`,
    );
  }
  return result;
}
