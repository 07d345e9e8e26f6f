import { HealthAssessment, HealthStatus, KubernetesObject } from '../types';
import { HealthRuleRegistration } from './adopterRules';
import { Condition, conditionsOf } from './conditions';
import { isRecord } from '../k8s/objects';

/**
 * One thing to look for in an object: a condition (type, status, optionally
 * one of some reasons) or a field with one of some values.
 *
 * @public
 */
export type DeclarativeHealthMatch =
  | {
      /** A `status.conditions[]` type. */
      condition: string;
      /** Its status; default `True`. */
      status?: 'True' | 'False' | 'Unknown';
      /** Any of these reasons; default any reason. */
      reasons?: string[];
    }
  | {
      /**
       * A dotted path into the object, e.g. `status.phase`; `\.` keeps a dot
       * inside a key: `metadata.annotations.cnpg\.io/hibernation`.
       */
      field: string;
      /** Any of these values (compared as strings). */
      values: Array<string | number | boolean>;
    };

/**
 * A health rule written in app-config (`gitlabEnv.health.rules[]`): for a
 * group and kind, what means Suspended, Degraded, Progressing or Healthy
 * (read in that order, the first match wins) and where the message is.
 *
 * @public
 */
export interface DeclarativeHealthRule {
  /** API group, `''` for the core group. */
  group: string;
  kind: string;
  suspended?: DeclarativeHealthMatch[];
  degraded?: DeclarativeHealthMatch[];
  progressing?: DeclarativeHealthMatch[];
  healthy?: DeclarativeHealthMatch[];
  /**
   * Dotted paths whose first non-empty value is the message; without one,
   * the matched condition's message (else its reason).
   */
  message?: string[];
  /** The status when nothing matches; default Unknown, with a message saying so. */
  otherwise?: HealthStatus;
}

const ORDER = [
  ['suspended', 'Suspended'],
  ['degraded', 'Degraded'],
  ['progressing', 'Progressing'],
  ['healthy', 'Healthy'],
] as const;
const RULE_KEYS = new Set([
  'group',
  'kind',
  'message',
  'otherwise',
  ...ORDER.map(([key]) => key),
]);
const OTHERWISE = new Set<string>([
  'Healthy',
  'Suspended',
  'Progressing',
  'Degraded',
  'Unknown',
]);
const CONDITION_STATUSES = new Set(['True', 'False', 'Unknown']);

/** The value at a dotted path, or undefined where the path leaves the object. */
function valueAt(obj: unknown, path: readonly string[]): unknown {
  let value = obj;
  for (const part of path) {
    if (!isRecord(value)) return undefined;
    value = value[part];
  }
  return value;
}

/** `a.b\.c` -> ['a', 'b.c']: a backslash keeps a dot inside a key (annotation names). */
function splitPath(path: string): string[] {
  return path.split(/(?<!\\)\./).map(part => part.replace(/\\\./g, '.'));
}

interface CompiledMatch {
  test(obj: KubernetesObject, conditions: Condition[]): Condition | boolean;
}

function compileMatch(match: DeclarativeHealthMatch): CompiledMatch {
  if ('condition' in match) {
    const status = match.status ?? 'True';
    const reasons = match.reasons ? new Set(match.reasons) : undefined;
    return {
      test: (_obj, conditions) =>
        conditions.find(
          c =>
            c.type === match.condition &&
            c.status === status &&
            (!reasons || (c.reason !== undefined && reasons.has(c.reason))),
        ) ?? false,
    };
  }
  const path = splitPath(match.field);
  const values = new Set(match.values.map(String));
  return {
    test: obj => {
      const value = valueAt(obj, path);
      return (
        (typeof value === 'string' ||
          typeof value === 'number' ||
          typeof value === 'boolean') &&
        values.has(String(value))
      );
    },
  };
}

function messageFrom(
  obj: KubernetesObject,
  paths: ReadonlyArray<readonly string[]>,
  matched: Condition | undefined,
): string | undefined {
  for (const path of paths) {
    const value = valueAt(obj, path);
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number' || typeof value === 'boolean')
      return String(value);
  }
  return matched?.message || matched?.reason || undefined;
}

/**
 * The health rule an app-config entry describes. Assumes a validated entry
 * (see parseDeclarativeHealthRules).
 *
 * @public
 */
export function compileDeclarativeHealthRule(
  rule: DeclarativeHealthRule,
): (obj: KubernetesObject) => HealthAssessment {
  const steps = ORDER.map(
    ([key, status]) => [status, (rule[key] ?? []).map(compileMatch)] as const,
  ).filter(([, matches]) => matches.length > 0);
  const paths = (rule.message ?? []).map(splitPath);
  const where = `${rule.group}/${rule.kind}`;
  return obj => {
    // computeHealth only passes objects; a compiled rule is public API too.
    const conditions = isRecord(obj) ? conditionsOf(obj) : [];
    for (const [status, matches] of steps) {
      for (const match of matches) {
        const found = match.test(obj, conditions);
        if (!found) continue;
        const message = messageFrom(
          obj,
          paths,
          found === true ? undefined : found,
        );
        return message ? { status, message } : { status };
      }
    }
    if (rule.otherwise && rule.otherwise !== 'Unknown') {
      const message = messageFrom(obj, paths, undefined);
      return message
        ? { status: rule.otherwise, message }
        : { status: rule.otherwise };
    }
    return {
      status: 'Unknown',
      message: `None of the states gitlabEnv.health.rules gives for ${where} matches this object`,
    };
  };
}

function checkMatch(value: unknown, where: string, problems: string[]): void {
  if (!isRecord(value)) {
    problems.push(
      `${where} must be an object with 'condition' (and optional 'status', 'reasons') or 'field' and 'values'`,
    );
    return;
  }
  const isCondition = 'condition' in value;
  const isField = 'field' in value;
  if (isCondition === isField) {
    problems.push(
      `${where} needs exactly one of 'condition' or 'field', got keys ${JSON.stringify(
        Object.keys(value),
      )}`,
    );
    return;
  }
  if (isCondition) {
    for (const key of Object.keys(value))
      if (!['condition', 'status', 'reasons'].includes(key))
        problems.push(
          `${where}.${key} is not a setting of a condition match (condition, status, reasons)`,
        );
    if (typeof value.condition !== 'string' || !value.condition)
      problems.push(
        `${where}.condition must be a condition type such as Ready`,
      );
    if (
      value.status !== undefined &&
      !CONDITION_STATUSES.has(value.status as string)
    )
      problems.push(
        `${where}.status must be "True", "False" or "Unknown" (quoted in YAML), got ${JSON.stringify(
          value.status,
        )}`,
      );
    if (
      value.reasons !== undefined &&
      (!Array.isArray(value.reasons) ||
        value.reasons.length === 0 ||
        !value.reasons.every(r => typeof r === 'string'))
    )
      problems.push(`${where}.reasons must be a non-empty list of strings`);
    return;
  }
  for (const key of Object.keys(value))
    if (!['field', 'values'].includes(key))
      problems.push(
        `${where}.${key} is not a setting of a field match (field, values)`,
      );
  if (
    typeof value.field !== 'string' ||
    !/^[^.\s]+(\.[^.\s]+)*$/.test(value.field)
  )
    problems.push(
      `${where}.field must be a dotted path such as status.phase, got ${JSON.stringify(
        value.field,
      )}`,
    );
  if (
    !Array.isArray(value.values) ||
    value.values.length === 0 ||
    !value.values.every(v => ['string', 'number', 'boolean'].includes(typeof v))
  )
    problems.push(`${where}.values must be a non-empty list of scalars`);
}

function checkRule(value: unknown, where: string, problems: string[]): void {
  if (!isRecord(value)) {
    problems.push(`${where} must be an object with group, kind and states`);
    return;
  }
  for (const key of Object.keys(value))
    if (!RULE_KEYS.has(key))
      problems.push(
        `${where}.${key} is not a setting of a health rule (${[
          ...RULE_KEYS,
        ].join(', ')})`,
      );
  if (typeof value.group !== 'string')
    problems.push(
      `${where}.group must be the API group, e.g. postgresql.cnpg.io ('' for the core group)`,
    );
  if (
    typeof value.kind !== 'string' ||
    !/^[A-Za-z][A-Za-z0-9]*$/.test(value.kind)
  )
    problems.push(
      `${where}.kind must be a kind such as Cluster, got ${JSON.stringify(
        value.kind,
      )}`,
    );
  let states = 0;
  for (const [key] of ORDER) {
    const matches = value[key];
    if (matches === undefined) continue;
    if (!Array.isArray(matches)) {
      problems.push(`${where}.${key} must be a list of matches`);
      continue;
    }
    states += matches.length;
    matches.forEach((match, i) =>
      checkMatch(match, `${where}.${key}[${i}]`, problems),
    );
  }
  if (states === 0)
    problems.push(
      `${where} gives no state: add matches under healthy, progressing, degraded or suspended`,
    );
  if (
    value.message !== undefined &&
    (!Array.isArray(value.message) ||
      !value.message.every(m => typeof m === 'string' && m.length > 0))
  )
    problems.push(
      `${where}.message must be a list of dotted paths such as status.message`,
    );
  if (
    value.otherwise !== undefined &&
    !OTHERWISE.has(value.otherwise as string)
  )
    problems.push(
      `${where}.otherwise must be one of ${[...OTHERWISE].join(
        ', ',
      )}, got ${JSON.stringify(value.otherwise)}`,
    );
}

/**
 * Validates `gitlabEnv.health.rules` (as read from config: plain JSON) and
 * compiles it into rule registrations. Throws one error listing every
 * problem, each naming its key, so a wrong rule stops the backend at start.
 *
 * @public
 */
export function parseDeclarativeHealthRules(
  value: unknown,
  where = 'gitlabEnv.health.rules',
): HealthRuleRegistration[] {
  if (value === undefined || value === null) return [];
  const problems: string[] = [];
  if (!Array.isArray(value)) {
    throw new Error(`${where} must be a list of health rules`);
  }
  value.forEach((rule, i) => checkRule(rule, `${where}[${i}]`, problems));
  const seen = new Map<string, number>();
  value.forEach((rule, i) => {
    // A group or kind that is not a string is reported by checkRule; one
    // from YAML may be a mapping whose `toString` is no function.
    if (
      !isRecord(rule) ||
      typeof rule.group !== 'string' ||
      typeof rule.kind !== 'string'
    )
      return;
    const key = `${rule.group}/${rule.kind}`;
    const first = seen.get(key);
    if (first !== undefined)
      problems.push(
        `${where}[${i}] repeats ${key}, already given by ${where}[${first}]`,
      );
    else seen.set(key, i);
  });
  if (problems.length > 0)
    throw new Error(`Invalid health rules:\n- ${problems.join('\n- ')}`);
  return (value as DeclarativeHealthRule[]).map((rule, i) => ({
    group: rule.group,
    kind: rule.kind,
    rule: compileDeclarativeHealthRule(rule),
    source: `${where}[${i}]`,
  }));
}
