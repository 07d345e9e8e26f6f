import { HealthAssessment, KubernetesObject } from '../../types';
import { health } from '../conditions';
import { isRecord, specOf } from '../../k8s/objects';

/**
 * ArgoCD's batch/CronJob Lua check, except that a suspended CronJob is
 * Suspended: ArgoCD deliberately calls it Healthy (argo-cd#24428), but a
 * paused workload shown green is the mistake people stop trusting a tool
 * for.
 */
export function cronJobHealth(obj: KubernetesObject): HealthAssessment {
  if (specOf(obj).suspend === true)
    return health('Suspended', 'CronJob is Suspended');
  if (!isRecord(obj.status))
    return health('Progressing', 'Waiting for CronJob');
  const { lastScheduleTime, lastSuccessfulTime, active } = obj.status;
  if (!lastScheduleTime)
    return health('Healthy', 'CronJob has not been scheduled yet');
  if (!lastSuccessfulTime) {
    return health(
      'Healthy',
      'The CronJob never completed successfully. It may not be healthy',
    );
  }
  if (Array.isArray(active) && active.length > 0) {
    return health(
      'Healthy',
      'The job is running. Its last execution may not have been successful',
    );
  }
  if (String(lastSuccessfulTime) < String(lastScheduleTime)) {
    return health(
      'Degraded',
      'CronJob has not completed its last execution successfully',
    );
  }
  return health(
    'Healthy',
    'CronJob has completed its last execution successfully',
  );
}
