import { HealthAssessment, KubernetesObject } from '../../types';
import {
  Condition,
  conditionsOf,
  health,
  isTypedCondition,
} from '../conditions';
import { isRecord, kindOf, statusOf } from '../../k8s/objects';

function asConditions(value: unknown): Condition[] {
  return Array.isArray(value) ? value.filter(isTypedCondition) : [];
}

function problem(
  conditions: Condition[],
  prefix: string,
  programmingMessage: string,
): HealthAssessment | undefined {
  const broken =
    conditions.find(c => c.type === 'ResolvedRefs' && c.status === 'False') ??
    conditions.find(c => c.type === 'Accepted' && c.status === 'False');
  if (broken)
    return health(
      'Degraded',
      `${prefix}${broken.message || `Failed condition: ${broken.type}`}`,
    );
  const programmed = conditions.find(c => c.type === 'Programmed');
  if (programmed && programmed.status !== 'True') {
    return health(
      'Progressing',
      `${prefix}${programmed.message || programmingMessage}`,
    );
  }
  return undefined;
}

/** gateway.networking.k8s.io Gateway, then each listener. */
export function gatewayHealth(obj: KubernetesObject): HealthAssessment {
  const conditions = conditionsOf(obj);
  const own = problem(conditions, '', 'Gateway is still being programmed');
  if (own) return own;
  const listeners = Array.isArray(statusOf(obj).listeners)
    ? statusOf(obj).listeners.filter(isRecord)
    : [];
  for (const listener of listeners) {
    const result = problem(
      asConditions(listener.conditions),
      'Listener: ',
      'Gateway is still being programmed',
    );
    if (result) return result;
  }
  if (conditions.length > 0 || listeners.length > 0)
    return health('Healthy', 'Gateway is healthy');
  return health('Progressing', 'Waiting for Gateway status');
}

/**
 * HTTPRoute parents count only once one of their conditions carries the
 * route's current generation; ArgoCD's GRPCRoute check does not look.
 */
function parentObserved(
  kind: string,
  generation: unknown,
  conditions: Condition[],
): boolean {
  if (kind !== 'HTTPRoute' || generation === undefined || generation === null)
    return true;
  return conditions.some(c => c.observedGeneration === generation);
}

/** HTTPRoute and GRPCRoute: judged per parent. */
export function routeHealth(obj: KubernetesObject): HealthAssessment {
  const kind = kindOf(obj) || 'HTTPRoute';
  const generation = obj.metadata?.generation;
  const parents = Array.isArray(statusOf(obj).parents)
    ? statusOf(obj).parents.filter(isRecord)
    : [];
  let current = false;
  for (const parent of parents) {
    const conditions = asConditions(parent.conditions);
    if (!parentObserved(kind, generation, conditions)) continue;
    if (conditions.length > 0) current = true;
    const name = isRecord(parent.parentRef) ? parent.parentRef.name ?? '' : '';
    const result = problem(
      conditions,
      `Parent ${name}: `,
      'Route is still being programmed',
    );
    if (result) return result;
  }
  return current
    ? health('Healthy', `${kind} is healthy`)
    : health('Progressing', `Waiting for ${kind} status`);
}

/** GatewayClass: its Accepted condition for the current generation. */
export function gatewayClassHealth(obj: KubernetesObject): HealthAssessment {
  const generation = obj.metadata?.generation;
  const accepted = conditionsOf(obj).find(
    c =>
      c.type === 'Accepted' &&
      (c.observedGeneration === undefined ||
        generation === undefined ||
        c.observedGeneration === generation),
  );
  if (accepted?.status === 'True')
    return health('Healthy', accepted.message || 'GatewayClass is accepted');
  if (accepted?.status === 'False')
    return health(
      'Degraded',
      accepted.message || 'GatewayClass is not accepted',
    );
  return health(
    'Progressing',
    accepted?.message || 'Waiting for GatewayClass status',
  );
}
