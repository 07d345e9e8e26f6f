import { KubernetesObject } from '../types';
import { isRecord, str } from '../k8s/objects';

/** One manager's share of an object, from `metadata.managedFields`. @public */
export interface FieldManagerEntry {
  manager: string;
  operation: string;
  /** When the manager last changed its fields, as the API server recorded it. */
  time?: string;
  subresource?: string;
  /** The leaf fields it owns, as segments: `['spec', 'replicas']`, list items as `[{"name":"web"}]`. */
  paths: string[][];
}

/** A walk through `fieldsV1` stops here: objects come from clusters. */
const MAX_PATHS_PER_MANAGER = 500;
const MAX_DEPTH = 32;

/**
 * The path segment of a `fieldsV1` key: `f:<name>` a field, `k:{json}` a
 * list item by its keys, `v:<json>` a set value, `i:<n>` an index
 * (https://kubernetes.io/docs/reference/using-api/server-side-apply/#field-management).
 * `.` is fieldsV1's own entry for the element itself.
 */
function segment(key: string): string | undefined {
  if (key === '.') return undefined;
  const kind = key.slice(0, 2);
  const rest = key.slice(2);
  if (kind === 'f:') return rest;
  if (kind === 'k:' || kind === 'v:' || kind === 'i:') return `[${rest}]`;
  return undefined;
}

/** A path as people read it: `spec.template.spec.containers[{"name":"web"}].image`. @public */
export function formatFieldPath(path: readonly string[]): string {
  let text = '';
  for (const part of path) {
    if (text && !part.startsWith('[')) text += '.';
    text += part;
  }
  return text;
}

function collectPaths(
  fields: Record<string, unknown>,
  prefix: string[],
  depth: number,
  into: string[][],
): void {
  for (const key of Object.keys(fields)) {
    if (into.length >= MAX_PATHS_PER_MANAGER) return;
    const part = segment(key);
    if (part === undefined) continue;
    const path = [...prefix, part];
    const child = fields[key];
    const children =
      isRecord(child) && depth < MAX_DEPTH
        ? Object.keys(child).filter(k => k !== '.')
        : [];
    if (children.length === 0) into.push(path);
    else collectPaths(child as Record<string, unknown>, path, depth + 1, into);
  }
}

/**
 * Who owns which fields of an object, per server-side apply's
 * `metadata.managedFields`; malformed entries are skipped.
 *
 * @public
 */
export function fieldManagers(object: KubernetesObject): FieldManagerEntry[] {
  const entries = object.metadata?.managedFields;
  if (!Array.isArray(entries)) return [];
  const managers: FieldManagerEntry[] = [];
  for (const entry of entries) {
    if (!isRecord(entry) || !str(entry.manager)) continue;
    const paths: string[][] = [];
    if (isRecord(entry.fieldsV1)) collectPaths(entry.fieldsV1, [], 0, paths);
    managers.push({
      manager: entry.manager,
      operation: str(entry.operation) ?? '',
      time: str(entry.time),
      subresource: str(entry.subresource),
      paths,
    });
  }
  return managers;
}

/**
 * The manager and time of the entry owning a field path, e.g. who set
 * `spec.suspend` and when.
 *
 * @public
 */
export function ownerOfField(
  object: KubernetesObject,
  path: readonly string[],
): FieldManagerEntry | undefined {
  const wanted = formatFieldPath(path);
  return fieldManagers(object).find(
    entry =>
      !entry.subresource &&
      entry.paths.some(owned => formatFieldPath(owned) === wanted),
  );
}

/**
 * The value at a managedFields path in an object: `[{"name":"web"}]`
 * picks the list item whose fields equal the keys, `[<json>]` a set value.
 */
export function valueAtFieldPath(
  object: unknown,
  path: readonly string[],
): { found: boolean; value?: unknown } {
  let current: unknown = object;
  for (const part of path) {
    if (part.startsWith('[')) {
      if (!Array.isArray(current)) return { found: false };
      let selector: unknown;
      try {
        selector = JSON.parse(part.slice(1, -1));
      } catch {
        return { found: false };
      }
      current = current.find(item =>
        isRecord(selector)
          ? isRecord(item) &&
            Object.entries(selector).every(([k, v]) => item[k] === v)
          : item === selector,
      );
      if (current === undefined) return { found: false };
    } else {
      if (!isRecord(current) || !(part in current)) return { found: false };
      current = current[part];
    }
  }
  return { found: true, value: current };
}
