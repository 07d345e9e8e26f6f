import {
  HEALTH_STATUSES,
  HealthAssessment,
  KubernetesObject,
} from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf, str } from '../../../k8s/objects';

const VALID = new Set<string>(HEALTH_STATUSES);

/**
 * Argo CD Application (Argo CD's argoproj.io/Application script, which
 * Argo CD ships for app-of-apps): the health Argo CD itself reports in
 * `status.health`.
 */
export function argoApplicationHealth(obj: KubernetesObject): HealthAssessment {
  const reported = statusOf(obj).health;
  const status = isRecord(reported) ? reported.status : undefined;
  if (status === undefined || status === null)
    return health('Progressing', 'Waiting for application to be reconciled');
  if (typeof status !== 'string' || !VALID.has(status))
    return health('Unknown', 'Lua returned an invalid health status');
  return health(
    status as HealthAssessment['status'],
    isRecord(reported) ? str(reported.message) : undefined,
  );
}
