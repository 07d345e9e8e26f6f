import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

/**
 * Open Cluster Management ConfigurationPolicy (Argo CD's
 * policy.open-cluster-management.io/ConfigurationPolicy): compliance of
 * the evaluated generation, with each compliancy condition's message.
 */
export function ocmConfigurationPolicyHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const status = statusOf(obj);
  if (status.compliant === undefined || status.compliant === null)
    return health('Progressing', 'Waiting for the status to be reported');
  if (status.lastEvaluatedGeneration !== obj.metadata?.generation)
    return health('Progressing', 'Waiting for the status to be updated');
  if (!Array.isArray(status.compliancyDetails))
    return health('Progressing', 'Waiting for compliance');
  const messages: string[] = [];
  for (const detail of status.compliancyDetails) {
    if (!isRecord(detail) || !Array.isArray(detail.conditions)) continue;
    for (const c of detail.conditions)
      if (
        isRecord(c) &&
        typeof c.message === 'string' &&
        typeof c.type === 'string'
      )
        messages.push(`${c.type} - ${c.message}`);
  }
  return health(
    status.compliant === 'Compliant' ? 'Healthy' : 'Degraded',
    messages.join('; '),
  );
}
