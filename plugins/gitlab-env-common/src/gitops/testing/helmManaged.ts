import { KubernetesObject } from '../../types';

/**
 * A ConfigMap of namespace `shop` whose labels say the HelmRelease
 * `shop/web` manages it, with one data field `manager` last wrote (a
 * manager other than Flux's means drift, read from managedFields alone).
 */
export function helmManagedConfigMap(
  name: string,
  manager: string,
): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'shop',
      labels: {
        'helm.toolkit.fluxcd.io/name': 'web',
        'helm.toolkit.fluxcd.io/namespace': 'shop',
      },
      managedFields: [
        { manager, operation: 'Update', fieldsV1: { 'f:data': { 'f:x': {} } } },
      ],
    },
  };
}
