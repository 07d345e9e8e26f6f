import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

/** KEDA ScaledObject and ScaledJob: the last matching condition's message wins. */
function kedaHealth(obj: KubernetesObject, job: boolean): HealthAssessment {
  let degraded = false;
  let healthy = false;
  let suspended = false;
  let message: string | undefined;
  for (const c of conditionsOf(obj)) {
    if (
      c.type === 'Ready' &&
      (c.status === 'False' || (job && c.status === 'Unknown'))
    ) {
      degraded = true;
      message = c.message;
    } else if (c.type === 'Ready' && c.status === 'True') {
      healthy = true;
      message = c.message;
    } else if (c.type === 'Paused' && c.status === 'True') {
      suspended = true;
      message = c.message;
    } else if (!job && c.type === 'Fallback' && c.status === 'True') {
      degraded = true;
      message = c.message;
    }
  }
  if (degraded) return health('Degraded', message);
  if (healthy) return health(suspended ? 'Suspended' : 'Healthy', message);
  return health(
    'Progressing',
    job ? 'Waiting for ScaledJob' : 'Creating HorizontalPodAutoscaler Object',
  );
}

export const scaledObjectHealth = (obj: KubernetesObject) =>
  kedaHealth(obj, false);
export const scaledJobHealth = (obj: KubernetesObject) => kedaHealth(obj, true);
