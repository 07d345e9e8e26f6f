import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, generationBehind, health, specOf } from '../conditions';

/**
 * Any other custom resource, by the status conventions most controllers
 * follow (kstatus): suspended, Stalled, Reconciling, a generation the
 * controller has not observed yet, then a Ready or Available condition.
 * Undefined when nothing tells, so such objects carry no health.
 */
export function genericHealth(
  obj: KubernetesObject,
): HealthAssessment | undefined {
  if (specOf(obj).suspend === true)
    return health('Suspended', `${obj.kind ?? 'Resource'} is suspended`);
  const conditions = conditionsOf(obj);
  const stalled = conditions.find(
    c => c.type === 'Stalled' && c.status === 'True',
  );
  if (stalled) return health('Degraded', stalled.message || stalled.reason);
  const reconciling = conditions.find(
    c => c.type === 'Reconciling' && c.status === 'True',
  );
  if (reconciling)
    return health('Progressing', reconciling.message || reconciling.reason);
  const ready =
    conditions.find(c => c.type === 'Ready') ??
    conditions.find(c => c.type === 'Available');
  if (ready && generationBehind(obj)) {
    return health(
      'Progressing',
      'Waiting for the controller to observe the latest generation',
    );
  }
  if (ready?.status === 'True') return health('Healthy', ready.message);
  if (ready?.status === 'False')
    return health('Degraded', ready.message || ready.reason);
  if (ready) return health('Progressing', ready.message || ready.reason);
  return undefined;
}
