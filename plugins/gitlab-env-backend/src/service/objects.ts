import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { isRecord } from './json';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** What every value of a Secret reads as once it has left the backend. */
export const REDACTED_SECRET_VALUE = '<redacted>';

function redactValues(values: unknown): unknown {
  if (!isRecord(values)) return values;
  return Object.fromEntries(
    Object.keys(values).map(key => [key, REDACTED_SECRET_VALUE]),
  );
}

/**
 * An object as the engine wants it: kind and apiVersion set (the API server
 * leaves them off built-in list items), and without the bulky fields nobody
 * shows (managedFields, the last-applied copy of the whole object). A
 * Secret's values (service account tokens among them) never leave the
 * backend: its keys stay, each value reads REDACTED_SECRET_VALUE, as in
 * ArgoCD's resource views.
 */
export function normalizeObject(
  item: unknown,
  defaults: { apiVersion: string; kind: string },
): KubernetesObject | undefined {
  if (!isRecord(item) || !isRecord(item.metadata)) return undefined;
  const { managedFields: _managed, ...metadata } = item.metadata;
  if (isRecord(metadata.annotations) && LAST_APPLIED in metadata.annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...annotations } =
      metadata.annotations;
    metadata.annotations = annotations;
  }
  const apiVersion =
    typeof item.apiVersion === 'string' ? item.apiVersion : defaults.apiVersion;
  const kind = typeof item.kind === 'string' ? item.kind : defaults.kind;
  const object: KubernetesObject = { ...item, apiVersion, kind, metadata };
  if (apiVersion === 'v1' && kind === 'Secret') {
    if ('data' in object) object.data = redactValues(object.data);
    if ('stringData' in object)
      object.stringData = redactValues(object.stringData);
  }
  return object;
}

/** `PodList` → `Pod`. */
export function itemKind(listKind: unknown, fallback: string): string {
  return typeof listKind === 'string' && listKind.endsWith('List')
    ? listKind.slice(0, -'List'.length)
    : fallback;
}
