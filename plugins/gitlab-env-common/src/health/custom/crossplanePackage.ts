import { HealthAssessment, KubernetesObject } from '../../types';
import { Condition, conditionsOf, health } from '../conditions';
import { isRecord, kindOf } from '../../k8s/objects';

function hasConditions(obj: KubernetesObject): boolean {
  return (
    isRecord(obj.status) &&
    obj.status.conditions !== undefined &&
    obj.status.conditions !== null
  );
}

function lastOfType(
  conditions: Condition[],
  type: string,
): Condition | undefined {
  let found: Condition | undefined;
  for (const condition of conditions)
    if (condition.type === type) found = condition;
  return found;
}

/**
 * pkg.crossplane.io Provider and Configuration: Healthy only when both
 * `Installed` and `Healthy` are True; the message joins their reasons. (ArgoCD's
 * script fails on a missing reason, which reads as Unknown there too.)
 */
function packageHealth(
  obj: KubernetesObject,
  waiting: string,
): HealthAssessment {
  if (!hasConditions(obj)) return health('Progressing', waiting);
  const conditions = conditionsOf(obj);
  const installed = lastOfType(conditions, 'Installed');
  const healthy = lastOfType(conditions, 'Healthy');
  if (!installed?.reason || !healthy?.reason)
    return health(
      'Unknown',
      `${kindOf(obj)} reports no reason for its ${
        installed?.reason ? 'Healthy' : 'Installed'
      } condition`,
    );
  const ok = installed.status === 'True' && healthy.status === 'True';
  return health(
    ok ? 'Healthy' : 'Degraded',
    `${installed.reason} ${healthy.reason}`,
  );
}

export function crossplaneProviderHealth(
  obj: KubernetesObject,
): HealthAssessment {
  return packageHealth(obj, 'Waiting for provider to be installed');
}

export function crossplaneConfigurationHealth(
  obj: KubernetesObject,
): HealthAssessment {
  return packageHealth(obj, 'Waiting for Configuration');
}

/**
 * pkg.crossplane.io ConfigurationRevision: its `Healthy` condition
 * (`RevisionHealthy` since Crossplane v2), message its reason.
 */
export function crossplaneConfigurationRevisionHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!hasConditions(obj))
    return health('Progressing', 'Waiting for ConfigurationRevision');
  const conditions = conditionsOf(obj);
  const healthy =
    lastOfType(conditions, 'Healthy') ??
    lastOfType(conditions, 'RevisionHealthy');
  return health(
    healthy?.status === 'True' ? 'Healthy' : 'Degraded',
    healthy?.reason,
  );
}
