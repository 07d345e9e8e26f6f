import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

/**
 * argoproj.io ApplicationSet: an error degrades it; Applications not (yet)
 * up to date or a progressive sync step keep it Progressing; up to date is
 * Healthy; each with its condition's message. (ArgoCD's tests define a
 * `ResourcesUpToDate=False` set as Progressing, e.g. `could not create
 * application`, since the controller retries.)
 */
export function applicationSetHealth(obj: KubernetesObject): HealthAssessment {
  const conditions = conditionsOf(obj);
  const find = (type: string, status: string) =>
    conditions.find(c => c.type === type && c.status === status);
  const error = find('ErrorOccurred', 'True');
  if (error) return health('Degraded', error.message);
  const outdated = find('ResourcesUpToDate', 'False');
  if (outdated) return health('Progressing', outdated.message);
  const rolling = find('RolloutProgressing', 'True');
  if (rolling) return health('Progressing', rolling.message);
  const upToDate = find('ResourcesUpToDate', 'True');
  if (upToDate) return health('Healthy', upToDate.message);
  return health('Progressing', 'Waiting for the status to be reported');
}
