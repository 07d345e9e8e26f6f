import { HealthAssessment, KubernetesObject } from '../../types';
import { Condition, conditionsOf, health } from '../conditions';

/**
 * The shape many ArgoCD Lua checks share: the first condition of one type
 * decides (False: Degraded, True: Healthy, with its message); without it,
 * the kind's own waiting message.
 */
export function firstConditionHealth(
  obj: KubernetesObject,
  type: string,
  waiting: string,
  counts: (condition: Condition) => boolean = () => true,
): HealthAssessment {
  const condition = conditionsOf(obj).find(c => c.type === type && counts(c));
  if (condition?.status === 'False')
    return health('Degraded', condition.message);
  if (condition?.status === 'True') return health('Healthy', condition.message);
  return health('Progressing', waiting);
}

/**
 * The first condition of a type that is True (Healthy) or False
 * (Degraded), with its message; undefined when none decides.
 */
export function decidingCondition(
  obj: KubernetesObject,
  type: string,
): HealthAssessment | undefined {
  const condition = conditionsOf(obj).find(
    c => c.type === type && (c.status === 'True' || c.status === 'False'),
  );
  if (!condition) return undefined;
  return health(
    condition.status === 'True' ? 'Healthy' : 'Degraded',
    condition.message,
  );
}
