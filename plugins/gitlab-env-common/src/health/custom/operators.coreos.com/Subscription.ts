import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

const PENDING = 'An install plan for a subscription is pending installation';
const FAILING = new Set([
  'CatalogSourcesUnhealthy',
  'InstallPlanFailed',
  'ResolutionFailed',
]);

/**
 * OLM Subscription (Argo CD's operators.coreos.com/Subscription): a
 * pending install plan is Progressing; unhealthy catalog sources, a failed
 * install plan, a failed resolution or a missing install plan (other than
 * one OLM garbage-collected after the install) are Degraded; the message
 * lists the conditions as Argo CD's script does.
 */
export function subscriptionHealth(obj: KubernetesObject): HealthAssessment {
  const conditions = statusOf(obj).conditions;
  if (!Array.isArray(conditions)) return health('Progressing', PENDING);
  let degraded = 0;
  let pending = 0;
  let message = '';
  conditions.forEach((c, i) => {
    if (!isRecord(c)) return;
    message += `${i + 1}: ${String(c.type)} | ${String(c.status)}\n`;
    if (c.type === 'InstallPlanPending' && c.status === 'True') pending++;
    else if (
      c.type === 'InstallPlanMissing' &&
      c.reason !== 'ReferencedInstallPlanNotFound'
    )
      degraded++;
    else if (FAILING.has(c.type) && c.status === 'True') degraded++;
  });
  if (degraded === 0 && pending === 0) return health('Healthy', message);
  if (degraded === 0) return health('Progressing', PENDING);
  return health('Degraded', message);
}
