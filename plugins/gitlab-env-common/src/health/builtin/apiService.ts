import { HealthAssessment, KubernetesObject } from '../../types';
import { findCondition, health } from '../conditions';

export function apiServiceHealth(obj: KubernetesObject): HealthAssessment {
  const available = findCondition(obj, 'Available');
  if (!available) return health('Progressing', 'Waiting to be processed');
  const message = `${available.reason ?? ''}: ${available.message ?? ''}`;
  return health(
    available.status === 'True' ? 'Healthy' : 'Progressing',
    message,
  );
}
