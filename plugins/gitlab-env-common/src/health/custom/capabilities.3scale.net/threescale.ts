import { HealthAssessment, KubernetesObject } from '../../../types';
import type { HealthRule } from '../../healthRule';
import { conditionsOf, health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

/**
 * 3scale operator capabilities kinds synchronised with a 3scale account
 * (Argo CD's capabilities.3scale.net/Backend and Product): the first True
 * condition of Synced (Healthy), Invalid, Orphan or Failed (Degraded, its
 * message or Argo CD's).
 */
export function threescaleSyncedRule(kind: string): HealthRule {
  const failures: Record<string, string> = {
    Invalid: `3scale ${kind} configuration is invalid`,
    Orphan: `3scale ${kind} references non-existing resources`,
    Failed: `3scale ${kind} synchronization failed`,
  };
  return (obj): HealthAssessment => {
    for (const c of conditionsOf(obj)) {
      if (c.status !== 'True') continue;
      if (c.type === 'Synced')
        return health('Healthy', `3scale ${kind} is synced`);
      if (c.type in failures)
        return health('Degraded', c.message || failures[c.type]);
    }
    return health('Progressing', `Waiting for 3scale ${kind} status...`);
  };
}

/**
 * 3scale Application (Argo CD's capabilities.3scale.net/Application):
 * suspended by state, Ready, or not ready before 3scale gave it an id.
 */
export function threescaleApplicationHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (isRecord(obj.status)) {
    const status = statusOf(obj);
    if (status.state === 'suspended')
      return health('Suspended', '3scale Application is suspended');
    const hasId = typeof status.adminId === 'number' && status.adminId > 0;
    for (const c of conditionsOf(obj)) {
      if (c.type !== 'Ready') continue;
      if (c.status === 'True')
        return health('Healthy', '3scale Application is ready');
      if (!hasId)
        return health(
          'Degraded',
          c.message || '3scale Application is not ready',
        );
    }
  }
  return health('Progressing', 'Waiting for 3scale Application status...');
}
