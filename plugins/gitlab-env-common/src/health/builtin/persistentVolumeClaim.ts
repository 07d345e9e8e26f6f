import { HealthAssessment, KubernetesObject } from '../../types';
import { health } from '../conditions';
import { statusOf } from '../../k8s/objects';

export function persistentVolumeClaimHealth(
  obj: KubernetesObject,
): HealthAssessment {
  switch (statusOf(obj).phase) {
    case 'Bound':
      return health('Healthy');
    case 'Pending':
      return health('Progressing');
    case 'Lost':
      return health('Degraded');
    default:
      return health('Unknown');
  }
}
