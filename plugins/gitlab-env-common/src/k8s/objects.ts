import { KubernetesObject } from '../types';

// Reading Kubernetes objects as they come (from a cluster, a repository, a
// browser): every field may be missing or of another type, so each helper
// answers a safe value rather than throwing.

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const NO_FIELDS: Readonly<Record<string, any>> = Object.freeze({});

/** `obj.spec` / `obj.status` as a record, or an empty one when malformed. */
export function specOf(obj: KubernetesObject): Record<string, any> {
  return isRecord(obj.spec) ? obj.spec : {};
}

export function statusOf(obj: KubernetesObject): Record<string, any> {
  return isRecord(obj.status) ? obj.status : {};
}

/** An object's labels, or none when they are not a record. */
export function labelsOf(
  object: KubernetesObject,
): Readonly<Record<string, any>> {
  const labels = object.metadata?.labels;
  return isRecord(labels) ? labels : NO_FIELDS;
}

/** An object's annotations, or none when they are not a record. */
export function annotationsOf(
  object: KubernetesObject,
): Readonly<Record<string, any>> {
  const annotations = object.metadata?.annotations;
  return isRecord(annotations) ? annotations : NO_FIELDS;
}

export function num(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
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

/**
 * String(value) that never throws: an object whose toString and valueOf
 * are not functions (a YAML mapping can write `toString: ""`) reads as its
 * tag, `[object Object]`, as any other mapping does.
 */
export function stringOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** API group of an object: '' for the core group. */
export function groupOf(obj: KubernetesObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
