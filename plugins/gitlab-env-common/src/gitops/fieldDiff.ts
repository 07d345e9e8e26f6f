import { FieldChange } from '../types';
import { isRecord } from '../k8s/objects';

const MAX_CHANGES = 200;
const MAX_DEPTH = 32;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * One desired value against the live one: records field by field, lists
 * of the same length item by item (the API server defaults fields inside
 * items too, e.g. a port's protocol), anything else whole.
 */
function compare(
  want: unknown,
  value: unknown,
  at: string,
  depth: number,
  into: FieldChange[],
): void {
  if (depth >= MAX_DEPTH) {
    if (!same(want, value))
      into.push({ path: at, change: 'changed', desired: want, live: value });
  } else if (isRecord(want) && isRecord(value)) {
    walk(want, value, at, depth + 1, into);
  } else if (
    Array.isArray(want) &&
    Array.isArray(value) &&
    want.length === value.length
  ) {
    want.forEach((item, index) =>
      compare(item, value[index], `${at}[${index}]`, depth + 1, into),
    );
  } else if (!same(want, value)) {
    into.push({ path: at, change: 'changed', desired: want, live: value });
  }
}

function walk(
  desired: Record<string, unknown>,
  live: unknown,
  path: string,
  depth: number,
  into: FieldChange[],
): void {
  for (const key of Object.keys(desired)) {
    if (into.length >= MAX_CHANGES) return;
    const at = path ? `${path}.${key}` : key;
    const want = desired[key];
    const has = isRecord(live) && key in live;
    const value = has ? (live as Record<string, unknown>)[key] : undefined;
    if (!has) into.push({ path: at, change: 'removed', desired: want });
    else compare(want, value, at, depth, into);
  }
}

/**
 * The fields of `desired` the live object lacks or holds otherwise. Fields
 * only the live object has are not reported: the API server adds defaults
 * to every object, so they say nothing about drift (managedFields tell who
 * added a field). Lists of one length compare item by item, others whole.
 * Bounded in depth and in changes.
 *
 * @public
 */
export function diffDesiredLive(
  desired: Record<string, unknown>,
  live: unknown,
): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(desired, live, '', 0, changes);
  return changes;
}
