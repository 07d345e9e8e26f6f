import { NO_FIELDS, isRecord } from '../../k8s/objects';

/** Whether labels hold every string-valued pair of a selector. */
export function selectorMatches(
  labels: unknown,
  selector: Record<string, unknown>,
  keys: readonly string[] = Object.keys(selector),
): boolean {
  const record = (isRecord(labels) ? labels : NO_FIELDS) as Record<
    string,
    unknown
  >;
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at];
    const value = selector[key];
    if (typeof value === 'string' && record[key] !== value) return false;
  }
  return true;
}

/**
 * Whether two objects' labels are the same: what relations may read of
 * another object than their origin (its handle aside) is its labels.
 */
export function sameLabels(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b)) return !isRecord(a) && !isRecord(b);
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys)
    if (a[key] !== b[key] || !Object.prototype.hasOwnProperty.call(b, key))
      return false;
  return true;
}

/**
 * Whether two list items are the same JSON (an inventory entry as it was
 * at the last inference): plain objects, arrays and primitives compared in
 * depth; anything else is the same only as the same value.
 */
export function sameItem(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  if (depth > 32) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++)
      if (!sameItem(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const proto = Object.getPrototypeOf(a);
  if (
    (proto !== Object.prototype && proto !== null) ||
    proto !== Object.getPrototypeOf(b)
  )
    return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (
      !sameItem(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        depth + 1,
      )
    )
      return false;
  }
  return true;
}
