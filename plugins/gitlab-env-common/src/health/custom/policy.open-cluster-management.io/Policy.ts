import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf } from '../../../k8s/objects';

const WAITING = 'Waiting for the status to be reported';

/**
 * Open Cluster Management Policy (Argo CD's
 * policy.open-cluster-management.io/Policy): compliance, listing the
 * clusters (root policy) or templates (replicated policy) not compliant.
 * Argo CD calls a disabled policy Healthy; here it is Suspended (it
 * enforces nothing).
 */
export function ocmPolicyHealth(obj: KubernetesObject): HealthAssessment {
  if (specOf(obj).disabled === true)
    return health('Suspended', 'Policy is disabled');
  if (!isRecord(obj.status)) return health('Progressing', WAITING);
  const status = statusOf(obj);
  if (
    status.compliant === undefined &&
    status.status === undefined &&
    Array.isArray(status.placement) &&
    status.placement.length > 0
  )
    return health('Healthy', 'No clusters match this policy');
  if (status.compliant === undefined) return health('Progressing', WAITING);
  const result = status.compliant === 'Compliant' ? 'Healthy' : 'Degraded';
  if (Array.isArray(status.status)) {
    const failing = status.status
      .filter(isRecord)
      .filter(e => e.compliant !== 'Compliant')
      .map(e => String(e.clustername));
    return health(
      result,
      failing.length === 0
        ? 'All clusters are compliant'
        : `NonCompliant clusters: ${failing.join(', ')}`,
    );
  }
  if (Array.isArray(status.details)) {
    const failing = status.details
      .filter(isRecord)
      .filter(e => e.compliant !== 'Compliant')
      .map(e => String(isRecord(e.templateMeta) ? e.templateMeta.name : ''));
    return health(
      result,
      failing.length === 0
        ? 'All templates are compliant'
        : `NonCompliant templates: ${failing.join(', ')}`,
    );
  }
  return health(result);
}
