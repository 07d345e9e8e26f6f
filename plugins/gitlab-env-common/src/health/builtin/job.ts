import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

/** ArgoCD's `health_job.go`: note it reads Failed and Complete whatever their status. */
export function jobHealth(obj: KubernetesObject): HealthAssessment {
  let complete = false;
  let failed = false;
  let suspended = false;
  let message: string | undefined;
  let failMessage: string | undefined;
  for (const condition of conditionsOf(obj)) {
    if (condition.type === 'Failed') {
      failed = true;
      complete = true;
      failMessage = condition.message;
    } else if (condition.type === 'Complete') {
      complete = true;
      message = condition.message;
    } else if (condition.type === 'Suspended') {
      complete = true;
      message = condition.message;
      suspended = condition.status === 'True';
    }
  }
  if (!complete) return health('Progressing');
  if (failed) return health('Degraded', failMessage);
  if (suspended) return health('Suspended', message);
  return health('Healthy', message);
}
