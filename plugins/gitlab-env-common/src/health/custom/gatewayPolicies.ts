import { HealthAssessment, KubernetesObject } from '../../types';
import { Condition, health, isTypedCondition } from '../conditions';
import { isRecord, kindOf, statusOf } from '../../k8s/objects';

/** One `status.ancestors[]` entry of a policy (Gateway API policy attachment, GEP-713). */
export interface Ancestor {
  name: string;
  conditions: Condition[];
  /** Whether `conditions` was present at all (ArgoCD skips entries without). */
  reported: boolean;
}

export function ancestorsOf(obj: KubernetesObject): Ancestor[] | undefined {
  const ancestors = statusOf(obj).ancestors;
  if (!Array.isArray(ancestors)) return undefined;
  return ancestors.filter(isRecord).map(ancestor => ({
    name:
      isRecord(ancestor.ancestorRef) &&
      typeof ancestor.ancestorRef.name === 'string'
        ? ancestor.ancestorRef.name
        : '',
    conditions: Array.isArray(ancestor.conditions)
      ? ancestor.conditions.filter(isTypedCondition)
      : [],
    reported: Array.isArray(ancestor.conditions),
  }));
}

/**
 * A condition written for another generation than the object's own. Both
 * must be set: a controller that does not stamp generations is trusted.
 */
export function stale(obj: KubernetesObject, condition: Condition): boolean {
  const generation = obj.metadata?.generation;
  return (
    generation !== undefined &&
    condition.observedGeneration !== undefined &&
    condition.observedGeneration !== generation
  );
}

function acceptedOf(ancestor: Ancestor): Condition | undefined {
  return ancestor.conditions.find(c => c.type === 'Accepted');
}

/**
 * An entry by a controller that is not responsible for the target: every
 * conformant implementation writes one, rejecting with TargetNotFound, while
 * the responsible controller's entry accepts. Without any accepting entry
 * the rejection is real.
 */
function notResponsible(ancestor: Ancestor, anyAccepted: boolean): boolean {
  const accepted = acceptedOf(ancestor);
  return (
    anyAccepted &&
    accepted !== undefined &&
    accepted.status !== 'True' &&
    accepted.reason === 'TargetNotFound'
  );
}

/**
 * gateway.networking.k8s.io BackendTLSPolicy: any stale ancestor keeps it
 * Progressing; an ancestor that did not accept it or cannot resolve its
 * references degrades it; an accepting one makes it Healthy.
 */
export function backendTlsPolicyHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const waiting = health('Progressing', 'Waiting for BackendTLSPolicy status');
  const ancestors = ancestorsOf(obj);
  if (!ancestors) return waiting;
  for (const ancestor of ancestors) {
    if (ancestor.conditions.some(c => stale(obj, c)))
      return health(
        'Progressing',
        `Waiting for Ancestor ${ancestor.name} to update BackendTLSPolicy status`,
      );
  }
  const anyAccepted = ancestors.some(a => acceptedOf(a)?.status === 'True');
  let result = waiting;
  for (const ancestor of ancestors) {
    if (!ancestor.reported || notResponsible(ancestor, anyAccepted)) continue;
    for (const condition of ancestor.conditions) {
      if (condition.type !== 'Accepted' && condition.type !== 'ResolvedRefs')
        continue;
      if (condition.status !== 'True')
        return health(
          'Degraded',
          `Ancestor ${ancestor.name}: ${condition.message ?? ''}`,
        );
      if (condition.type === 'Accepted')
        result = health('Healthy', 'BackendTLSPolicy is healthy');
    }
  }
  return result;
}

/**
 * gateway.envoyproxy.io policies (ClientTrafficPolicy, BackendTrafficPolicy,
 * SecurityPolicy, EnvoyExtensionPolicy, EnvoyPatchPolicy): ancestors of
 * another generation are skipped; any current one with `Accepted=False`
 * degrades it; one current ancestor with conditions makes it Healthy.
 */
export function envoyPolicyHealth(obj: KubernetesObject): HealthAssessment {
  const kind = kindOf(obj);
  const ancestors = ancestorsOf(obj) ?? [];
  const current = (ancestor: Ancestor) =>
    obj.metadata?.generation === undefined ||
    (ancestor.conditions.length > 0 &&
      !ancestor.conditions.some(c => stale(obj, c)));
  for (const ancestor of ancestors) {
    if (!ancestor.reported || !current(ancestor)) continue;
    const rejected = ancestor.conditions.find(
      c => c.type === 'Accepted' && c.status === 'False',
    );
    if (rejected) return health('Degraded', rejected.message);
  }
  if (ancestors.some(a => a.conditions.length > 0 && current(a)))
    return health('Healthy', `${kind} is healthy`);
  return health('Progressing', `Waiting for ${kind} status`);
}

/**
 * Any other policy of Gateway API's policy attachment (GEP-713), read from
 * its `status.ancestors`: an ancestor of the current generation that did
 * not accept it or cannot resolve its references degrades it; all current
 * ancestors accepting it make it Healthy; otherwise it waits. Undefined
 * without ancestors.
 */
export function ancestorPolicyHealth(
  obj: KubernetesObject,
): HealthAssessment | undefined {
  const ancestors = ancestorsOf(obj);
  if (!ancestors || ancestors.length === 0) return undefined;
  const current = ancestors.filter(
    a => a.conditions.length > 0 && !a.conditions.some(c => stale(obj, c)),
  );
  const anyAccepted = current.some(a => acceptedOf(a)?.status === 'True');
  for (const ancestor of current) {
    if (notResponsible(ancestor, anyAccepted)) continue;
    const failing = ancestor.conditions.find(
      c =>
        (c.type === 'Accepted' || c.type === 'ResolvedRefs') &&
        c.status === 'False',
    );
    if (failing)
      return health(
        'Degraded',
        `Ancestor ${ancestor.name}: ${
          failing.message || failing.reason || `${failing.type} is False`
        }`,
      );
  }
  if (
    current.length === ancestors.length &&
    current.every(
      a => acceptedOf(a)?.status === 'True' || notResponsible(a, anyAccepted),
    )
  )
    return health('Healthy', `${kindOf(obj)} is accepted`);
  return health(
    'Progressing',
    `Waiting for ancestors to accept ${kindOf(obj)}`,
  );
}
