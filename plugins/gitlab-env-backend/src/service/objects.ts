import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { isRecord } from './json';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * An object as the engine wants it: kind and apiVersion set (the API server
 * leaves them off built-in list items), and without the bulky fields nobody
 * shows (managedFields, the last-applied copy of the whole object).
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
  return {
    ...item,
    apiVersion:
      typeof item.apiVersion === 'string'
        ? item.apiVersion
        : defaults.apiVersion,
    kind: typeof item.kind === 'string' ? item.kind : defaults.kind,
    metadata,
  };
}

/** `PodList` → `Pod`. */
export function itemKind(listKind: unknown, fallback: string): string {
  return typeof listKind === 'string' && listKind.endsWith('List')
    ? listKind.slice(0, -'List'.length)
    : fallback;
}
