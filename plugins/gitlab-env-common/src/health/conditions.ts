import { HealthAssessment, KubernetesObject } from '../types';
import { isRecord, statusOf } from '../k8s/objects';

// What health rules read of `status.conditions`, and how they answer; the
// generic object helpers are in k8s/objects.

/** One entry of `status.conditions`, read defensively. */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  /** Unchecked: as written by the controller. */
  lastTransitionTime?: unknown;
  observedGeneration?: unknown;
}

const optionalText = (value: unknown) =>
  value === undefined || value === null || typeof value === 'string';

/**
 * A condition rules can read: string type and status, and a reason and
 * message that are text when present (rules put them into messages).
 */
function isCondition(value: unknown): value is Condition {
  return (
    isRecord(value) &&
    typeof value.type === 'string' &&
    typeof value.status === 'string' &&
    optionalText(value.reason) &&
    optionalText(value.message)
  );
}

/** Like isCondition, for lists where a condition may lack its status (Gateway API parents, ancestors). */
export function isTypedCondition(value: unknown): value is Condition {
  return (
    isRecord(value) &&
    typeof value.type === 'string' &&
    optionalText(value.reason) &&
    optionalText(value.message)
  );
}

export function conditionsOf(obj: KubernetesObject): Condition[] {
  const conditions = statusOf(obj).conditions;
  if (!Array.isArray(conditions)) return [];
  return conditions.filter(isCondition);
}

const NO_CONDITIONS: readonly Condition[] = [];

/**
 * The well-formed conditions, to read and never change: the list itself
 * when every entry is one (most objects), so the guard every object goes
 * through copies nothing.
 */
export function readConditionsOf(obj: KubernetesObject): readonly Condition[] {
  return readConditionsIn(isRecord(obj.status) ? obj.status : undefined);
}

/** As readConditionsOf, given the object's status (a record, if any) already read. */
export function readConditionsIn(
  status: Readonly<Record<string, unknown>> | undefined,
): readonly Condition[] {
  const conditions = status?.conditions;
  if (!Array.isArray(conditions)) return NO_CONDITIONS;
  for (const condition of conditions)
    if (!isCondition(condition)) return conditions.filter(isCondition);
  return conditions;
}

/** The first well-formed condition of a type; a loop, as it runs for most objects. */
export function findCondition(
  obj: KubernetesObject,
  type: string,
): Condition | undefined {
  const conditions = statusOf(obj).conditions;
  if (!Array.isArray(conditions)) return undefined;
  for (const condition of conditions) {
    if (isCondition(condition) && condition.type === type) return condition;
  }
  return undefined;
}

/** True when the controller has not seen the latest spec yet. */
export function generationBehind(obj: KubernetesObject): boolean {
  const generation = obj.metadata?.generation;
  const observed = statusOf(obj).observedGeneration;
  return (
    typeof generation === 'number' &&
    typeof observed === 'number' &&
    observed < generation
  );
}

export function health(
  status: HealthAssessment['status'],
  message?: string,
): HealthAssessment {
  return message ? { status, message } : { status };
}
