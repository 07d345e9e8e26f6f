import { KubernetesObject } from '../../types';

/** Test-only builders for manifests as the API server returns them. */
export function manifest(
  apiVersion: string,
  kind: string,
  spec: object | undefined,
  status?: object,
  metadata: object = {},
): KubernetesObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: `uid-${kind.toLowerCase()}-web`,
      generation: 1,
      ...metadata,
    },
    ...(spec ? { spec } : {}),
    ...(status ? { status } : {}),
  };
}

export function condition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason?: string,
  message?: string,
) {
  return {
    type,
    status,
    lastTransitionTime: '2026-11-22T10:00:00Z',
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/** Metadata of a namespaced object named `name`, plus `extra` fields. */
export function meta(name: string, extra: object = {}) {
  return { name, namespace: 'shop', uid: `uid-${name}`, ...extra };
}
