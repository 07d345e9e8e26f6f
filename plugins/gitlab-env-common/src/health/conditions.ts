import { HealthAssessment, KubernetesObject } from '../types';

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

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `obj.spec` / `obj.status` as a record, or an empty one when malformed. */
export function specOf(obj: KubernetesObject): Record<string, any> {
  return isRecord(obj.spec) ? obj.spec : {};
}

export function statusOf(obj: KubernetesObject): Record<string, any> {
  return isRecord(obj.status) ? obj.status : {};
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

export function num(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
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

/**
 * The object's kind, or '' when it is not a string: template strings and
 * String() throw on objects whose toString/valueOf are garbage.
 */
export function kindOf(obj: KubernetesObject): string {
  return typeof obj.kind === 'string' ? obj.kind : '';
}

/** A string as is, '' for anything else (never calls toString on garbage). */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** API group of an object: '' for the core group. */
export function groupOf(obj: KubernetesObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

export { isRecord };
