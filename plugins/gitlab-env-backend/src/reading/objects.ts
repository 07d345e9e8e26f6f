import {
  foreignFieldManagers,
  groupOfApiVersion,
  KubernetesObject,
  lastAppliedChanges,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { isRecord, MAX_JSON_DEPTH } from '../validation/json';
import type { StringPool } from './stringPool';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** What every value of a Secret reads as once it has left the backend. */
export const REDACTED_SECRET_VALUE = '<redacted>';

/** The kind an object was asked for as: from the path the backend built, never from the answer. */
export interface PlannedKind {
  apiVersion: string;
  kind: string;
}

/**
 * A Secret of the core API group, by group and kind, whatever version it
 * claims (`v1`, `v1beta1`, a version no API server serves): a repository
 * manifest or an answer may carry any. Fails closed: an apiVersion that is
 * not a string, or the group spelt `core`, counts as the core group, and
 * the kind is compared without case.
 */
export function isCoreSecret(apiVersion: unknown, kind: unknown): boolean {
  // Lower case is never shorter (checked over every code point), so no
  // other length can read "secret": most kinds are told apart without a copy.
  if (
    typeof kind !== 'string' ||
    kind.length !== 6 ||
    kind.toLowerCase() !== 'secret'
  )
    return false;
  const group =
    typeof apiVersion === 'string' ? groupOfApiVersion(apiVersion) : '';
  return group === '' || group.toLowerCase() === 'core';
}

function redactValues(values: unknown): unknown {
  if (!isRecord(values)) return values === undefined ? values : {};
  return Object.fromEntries(
    Object.keys(values).map(key => [key, REDACTED_SECRET_VALUE]),
  );
}

/** Metadata without managedFields and the last-applied copy: a Secret's copies hold its values. */
function stripAllCopies(metadata: Record<string, any>): Record<string, any> {
  const { managedFields: _managed, ...rest } = metadata;
  if (isRecord(rest.annotations) && LAST_APPLIED in rest.annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...annotations } = rest.annotations;
    rest.annotations = annotations;
  }
  return rest;
}

/**
 * The object's metadata without the bulky copies — except what is evidence
 * of drift, which the GitOps view shows: managedFields entries of managers
 * other than Flux and Kubernetes, and a last-applied annotation that
 * differs from the live object. The metadata itself when it has neither
 * copy (nothing to take out): it is replaced, never changed.
 */
function stripCopiesKeepingDrift(
  record: Record<string, any>,
): Record<string, any> {
  const metadata = record.metadata;
  const lastApplied =
    isRecord(metadata.annotations) && LAST_APPLIED in metadata.annotations;
  if (!lastApplied && !('managedFields' in metadata)) return metadata;
  const { managedFields: _managed, ...rest } = metadata;
  const foreign = foreignFieldManagers(record);
  if (foreign.length > 0) rest.managedFields = foreign;
  if (lastApplied && lastAppliedChanges(record).length === 0) {
    const { [LAST_APPLIED]: _lastApplied, ...annotations } = rest.annotations;
    rest.annotations = annotations;
  }
  return rest;
}

function isStringMap(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isRecord(value)) return false;
  // Every enumerable key, own or inherited: never fewer than Object.values,
  // and no array of values per object.
  // eslint-disable-next-line guard-for-in
  for (const key in value) if (typeof value[key] !== 'string') return false;
  return true;
}

/**
 * Why an item of an upstream answer cannot be shown, or undefined when it
 * can: the engine and the browser may rely on what a Kubernetes object
 * promises (string name, uid, labels). Depth is checked by normalizeObject.
 */
export function objectProblem(item: unknown): string | undefined {
  if (!isRecord(item) || !isRecord(item.metadata))
    return 'it has no metadata object';
  const { name, namespace, uid, labels, annotations } = item.metadata;
  if (typeof name !== 'string' || name === '')
    return 'its metadata.name is not a string';
  if (namespace !== undefined && typeof namespace !== 'string')
    return 'its metadata.namespace is not a string';
  if (uid !== undefined && typeof uid !== 'string')
    return 'its metadata.uid is not a string';
  if (!isStringMap(labels)) return 'its metadata.labels are not strings';
  if (!isStringMap(annotations))
    return 'its metadata.annotations are not strings';
  return undefined;
}

/** redactSecretsDeep's stacks: walks are synchronous and never nest. */
const walk = { values: [] as unknown[], depths: [] as number[] };
const MAX_KEPT_STACK = 4096;

/**
 * Fail-closed Secret redaction of any value that holds objects: every
 * object claiming to be a core Secret (any version, see isCoreSecret), wherever it sits (a `List` inside
 * an object, a watch event's `object`, an embedded copy), loses its values
 * and the last-applied and managed-fields copies. Iterative, so nesting
 * depth cannot overflow it. Mutates `value`; false when it nests deeper
 * than `maxDepth` (then it may be left half-walked and must be dropped).
 * With `strings`, the string values it passes become their pooled copies
 * (StringPool.shared), so an object kept by an informer is walked once.
 */
export function redactSecretsDeep(
  value: unknown,
  maxDepth = Infinity,
  strings?: StringPool,
): boolean {
  // Two stacks kept from walk to walk, and no array of values per object:
  // it walks every object of every list, so what it allocates is what the
  // collector pays for.
  const { values, depths } = walk;
  let top = 0;
  values[top] = value;
  depths[top++] = 1;
  try {
    while (top > 0) {
      const current = values[--top] as Record<string, unknown> | unknown[];
      values[top] = undefined;
      const depth = depths[top];
      if (depth > maxDepth) return false;
      if (typeof current !== 'object' || current === null) continue;
      if (Array.isArray(current)) {
        for (let i = 0; i < current.length; i++) {
          const child = current[i];
          if (typeof child === 'object' && child !== null) {
            values[top] = child;
            depths[top++] = depth + 1;
          } else if (strings && typeof child === 'string') {
            const shared = strings.shared(child);
            if (shared !== undefined) current[i] = shared;
          }
        }
        continue;
      }
      if (isCoreSecret(current.apiVersion, current.kind)) redactSecret(current);
      // Every enumerable key, own or inherited: never fewer than Object.values.
      // eslint-disable-next-line guard-for-in
      for (const key in current) {
        const child = current[key];
        if (typeof child === 'object' && child !== null) {
          values[top] = child;
          depths[top++] = depth + 1;
        } else if (strings && typeof child === 'string') {
          const shared = strings.shared(child, key);
          if (shared !== undefined) current[key] = shared;
        }
      }
    }
    return true;
  } finally {
    // Holds nothing of this walk (a refused object is left mid-walk), and
    // no room past what usual objects need (a wide one may need millions).
    if (values.length > MAX_KEPT_STACK) {
      values.length = 0;
      depths.length = 0;
    } else values.fill(undefined, 0, top);
  }
}

function redactSecret(secret: Record<string, any>) {
  if ('data' in secret) secret.data = redactValues(secret.data);
  if ('stringData' in secret)
    secret.stringData = redactValues(secret.stringData);
  if (isRecord(secret.metadata))
    secret.metadata = stripAllCopies(secret.metadata);
}

/**
 * An object as the engine wants it: apiVersion and kind those of the
 * collection the backend asked for (the API server leaves them off list
 * items, and an answer's own claim is not trusted), without the bulky
 * copies (managedFields, the last-applied annotation) but what of them
 * is evidence of drift; a Secret keeps none of them.
 * Redaction is decided per item and fails closed: an item is a Secret when
 * it was asked for as one or claims to be one, and every value of a Secret
 * (service account tokens among them) reads REDACTED_SECRET_VALUE; its keys
 * and type stay, as in ArgoCD's resource views. Undefined for items
 * `objectProblem` refuses.
 */
export function normalizeObject(
  item: unknown,
  planned: PlannedKind,
): KubernetesObject | undefined {
  return inspectObject(item, planned).object;
}

/** normalizeObject, saying why an item was refused. */
export function inspectObject(
  item: unknown,
  planned: PlannedKind,
  options: {
    /**
     * The item is the caller's own (a parsed answer held by nothing else):
     * it becomes the object, changed in place, instead of a shallow copy.
     * A refused item may be left half changed.
     */
    owned?: boolean;
    /** Where the object's short string values are pooled (an informer's list): none when undefined. */
    strings?: StringPool;
  } = {},
): { object?: KubernetesObject; problem?: string } {
  const problem = objectProblem(item);
  if (problem) return { problem };
  const record = item as Record<string, any>;
  const claimedSecret = isCoreSecret(record.apiVersion, record.kind);
  const stripped = stripCopiesKeepingDrift(record);
  const { owned, strings } = options;
  // A copy has the item's keys in their order, as assigning them does.
  const object: KubernetesObject = owned ? record : { ...record };
  object.apiVersion = planned.apiVersion;
  object.kind = planned.kind;
  object.metadata =
    owned || stripped !== record.metadata ? stripped : { ...stripped };
  if (claimedSecret || isCoreSecret(planned.apiVersion, planned.kind))
    redactSecret(object);
  // Redacts nested objects of the item in place: a copy is shallow, and
  // the items read are parsed answers, held by nothing else.
  if (!redactSecretsDeep(object, MAX_JSON_DEPTH, strings))
    return { problem: `it nests deeper than ${MAX_JSON_DEPTH} levels` };
  return { object };
}

/** How warnings name an object: `apps/v1 Deployment shop/web`. */
export function describeItem(item: unknown, planned: PlannedKind): string {
  const metadata =
    isRecord(item) && isRecord(item.metadata) ? item.metadata : {};
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 253) : '?');
  const where =
    metadata.namespace !== undefined ? `${text(metadata.namespace)}/` : '';
  return `${planned.apiVersion} ${planned.kind} ${where}${text(metadata.name)}`;
}
