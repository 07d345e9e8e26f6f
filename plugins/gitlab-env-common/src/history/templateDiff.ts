import { isRecord } from '../k8s/objects';
import { TemplateChange } from '../types';

const MAX_CHANGES = 200;
const MAX_DEPTH = 32;

/**
 * Lists whose items Kubernetes merges by name (strategic merge patch keys
 * of PodSpec and Container): compared item by item by that name, so
 * `spec.containers[name=api].image` says which container changed whatever
 * the order.
 */
const NAMED_LISTS = new Set([
  'containers',
  'initContainers',
  'ephemeralContainers',
  'env',
  'ports',
  'volumes',
  'volumeMounts',
  'volumeDevices',
  'imagePullSecrets',
]);

/** An empty map or list is an absent field (Kubernetes' semantic equality). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = canonical(value[key]);
    if (!isEmpty(item)) out[key] = item;
  }
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function namedItems(list: unknown[]): Map<string, unknown> | undefined {
  const byName = new Map<string, unknown>();
  for (const item of list) {
    const name = isRecord(item) ? item.name : undefined;
    if (typeof name !== 'string' || byName.has(name)) return undefined;
    byName.set(name, item);
  }
  return byName;
}

function compare(
  before: unknown,
  after: unknown,
  path: string,
  key: string,
  depth: number,
  into: TemplateChange[],
): void {
  if (into.length >= MAX_CHANGES) return;
  if (isEmpty(before) && isEmpty(after)) return;
  if (isEmpty(before)) {
    into.push({ path, change: 'added', after });
    return;
  }
  if (isEmpty(after)) {
    into.push({ path, change: 'removed', before });
    return;
  }
  if (depth >= MAX_DEPTH) {
    if (!same(before, after))
      into.push({ path, change: 'changed', before, after });
    return;
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const k of keys.sort())
      compare(
        before[k],
        after[k],
        path ? `${path}.${k}` : k,
        k,
        depth + 1,
        into,
      );
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const b = NAMED_LISTS.has(key) ? namedItems(before) : undefined;
    const a = NAMED_LISTS.has(key) ? namedItems(after) : undefined;
    if (a && b) {
      for (const name of [...new Set([...b.keys(), ...a.keys()])])
        compare(
          b.get(name),
          a.get(name),
          `${path}[name=${name}]`,
          '',
          depth + 1,
          into,
        );
      return;
    }
    if (before.length === after.length) {
      before.forEach((item, i) =>
        compare(item, after[i], `${path}[${i}]`, '', depth + 1, into),
      );
      return;
    }
  }
  if (!same(before, after))
    into.push({ path, change: 'changed', before, after });
}

/**
 * The fields of two pod templates that differ, `before` (e.g. what runs
 * now) against `after` (the revision to go back to), with Kubernetes'
 * semantic equality: an empty map or list is an absent field, containers,
 * env vars, ports and volumes match by name. Labels Kubernetes adds per
 * revision (`pod-template-hash`, `controller-revision-hash`) are left out.
 * At most 200 changes.
 *
 * @public
 */
export function podTemplateDiff(
  before: unknown,
  after: unknown,
): TemplateChange[] {
  const changes: TemplateChange[] = [];
  compare(
    withoutRevisionLabels(before),
    withoutRevisionLabels(after),
    '',
    '',
    0,
    changes,
  );
  return changes;
}

/** Labels the controllers add to each revision's pods: not part of what a person changed. */
export const REVISION_LABELS = [
  'pod-template-hash',
  'controller-revision-hash',
];

/** A pod template without the per-revision labels its controller adds. */
export function withoutRevisionLabels(template: unknown): unknown {
  if (!isRecord(template) || !isRecord(template.metadata)) return template;
  const labels = template.metadata.labels;
  if (!isRecord(labels)) return template;
  const kept = Object.fromEntries(
    Object.entries(labels).filter(([k]) => !REVISION_LABELS.includes(k)),
  );
  return { ...template, metadata: { ...template.metadata, labels: kept } };
}

/** Two pod templates are the same to Kubernetes (kubectl's EqualIgnoreHash). */
export function sameTemplate(a: unknown, b: unknown): boolean {
  return same(withoutRevisionLabels(a), withoutRevisionLabels(b));
}
