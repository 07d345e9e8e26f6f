import { HealthAssessment, KubernetesObject } from '../../types';
import { health } from '../conditions';
import { isRecord, statusOf } from '../../k8s/objects';

export function volumeSnapshotHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  if (status.readyToUse) return health('Healthy', 'Ready to use');
  if (isRecord(status.error)) return health('Degraded', status.error.message);
  return health('Progressing', 'Waiting for status');
}
