import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

const ADMITTING = 'Route is still getting admitted';

/**
 * OpenShift Route (Argo CD's route.openshift.io/Route): admitted by every
 * router that reports it (Healthy), refused by one (Degraded).
 */
export function openshiftRouteHealth(obj: KubernetesObject): HealthAssessment {
  const ingress = statusOf(obj).ingress;
  if (!Array.isArray(ingress)) return health('Progressing', ADMITTING);
  let admitted = 0;
  let refused = 0;
  for (const router of ingress) {
    const conditions = isRecord(router) ? router.conditions : undefined;
    if (!Array.isArray(conditions)) continue;
    for (const c of conditions) {
      if (!isRecord(c) || c.type !== 'Admitted') continue;
      if (c.status === 'True') admitted++;
      else if (c.status === 'False') refused++;
    }
  }
  if (admitted >= ingress.length) return health('Healthy', 'Route is healthy');
  if (refused > 0) return health('Degraded', 'Route is degraded');
  return health('Progressing', ADMITTING);
}
