import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { specOf, statusOf } from '../../../k8s/objects';

/**
 * OpenKruise AdvancedCronJob (Argo CD's apps.kruise.io/AdvancedCronJob):
 * paused before its first run, running jobs, never scheduled (Degraded),
 * or scheduled at least once (Healthy).
 */
export function advancedCronJobHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  const scheduled =
    typeof status.lastScheduleTime === 'string' &&
    /^\d+-\d+-\d+T\d+:\d+:\d+Z/.test(status.lastScheduleTime);
  if (!scheduled && specOf(obj).paused === true)
    return health('Suspended', 'AdvancedCronJob is Paused');
  if (Array.isArray(status.active) && status.active.length > 0)
    return health('Progressing', 'AdvancedCronJobs has active jobs');
  if (!scheduled)
    return health('Degraded', 'AdvancedCronJobs has not run successfully');
  return health('Healthy', 'AdvancedCronJobs has run successfully');
}
