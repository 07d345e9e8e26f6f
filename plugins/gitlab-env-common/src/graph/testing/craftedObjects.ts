import { KubernetesObject } from '../../types';

// Objects for the graph engine's tests: crafted so that every relation the
// engine knows reaches another object, and some objects fight over a key
// (a shared uid, one kind and name in two API groups, a name holding a
// slash, ownership cycles, inventories listing what the cluster lacks).

/** The namespace of the crafted objects. */
export const ns = 'shop';
export const meta = (name: string, extra: object = {}) => ({
  name,
  namespace: ns,
  uid: `uid-${name}`,
  ...extra,
});
export const configMap = (
  name: string,
  extra: object = {},
): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: meta(name, extra),
});
export const ownedBy = (
  name: string,
  uid = `uid-${name}`,
  controller = false,
) => ({
  ownerReferences: [{ kind: 'ConfigMap', name, uid, controller }],
});
export const kustomization = (
  name: string,
  ids: string[],
): KubernetesObject => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: meta(name),
  status: { inventory: { entries: ids.map(id => ({ id, v: 'v1' })) } },
});

/** Objects whose relations reach each other in every way the engine knows, and some that fight over a key. */
export const CRAFTED: KubernetesObject[] = [
  // An ownership cycle, and a node hanging below it.
  configMap('loop-a', ownedBy('loop-b')),
  configMap('loop-b', ownedBy('loop-a')),
  configMap('below-loop', ownedBy('loop-a', 'uid-loop-a', true)),
  // Two objects sharing a uid; owners found by name only.
  configMap('twin-1', { uid: 'uid-twin' }),
  configMap('twin-2', { uid: 'uid-twin' }),
  configMap('by-name', ownedBy('twin-1', '')),
  configMap('by-uid', ownedBy('anything', 'uid-twin')),
  // Inventories listing what the cluster lacks; an HPA scaling a missing entry.
  kustomization('flux-a', [
    `${ns}_ghost_apps_Deployment`,
    `${ns}_loop-a__ConfigMap`,
    `${ns}_ghost-cm__ConfigMap`,
  ]),
  kustomization('flux-b', [
    `${ns}_ghost_apps_Deployment`,
    `${ns}_twin-1__ConfigMap`,
  ]),
  {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta('ghost'),
    spec: {
      scaleTargetRef: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'ghost',
      },
    },
  },
  configMap('ghost-cm'),
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('ghost'),
    spec: { replicas: 0 },
    status: {},
  },
  // Flux Helm and cli-utils inventories.
  {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: meta('chart'),
  },
  configMap('charted', {
    labels: {
      'helm.toolkit.fluxcd.io/name': 'chart',
      'helm.toolkit.fluxcd.io/namespace': ns,
    },
  }),
  configMap('inventory-1', {
    labels: { 'cli-utils.sigs.k8s.io/inventory-id': 'inv' },
  }),
  configMap('inventory-2', {
    labels: { 'cli-utils.sigs.k8s.io/inventory-id': 'inv' },
  }),
  configMap('tracked', {
    annotations: { 'config.k8s.io/owning-inventory': 'inv' },
  }),
  // One kind and name in two API groups, and a name holding a slash.
  {
    apiVersion: 'example.com/v1',
    kind: 'Deployment',
    metadata: meta('ghost', { uid: 'uid-other-ghost' }),
  },
  configMap('odd/name', ownedBy('loop-b')),
  configMap('under-odd', ownedBy('odd/name', 'uid-odd/name')),
  // Flux sources, dependencies and a ResourceSet inventory.
  {
    ...kustomization('flux-c', [`${ns}_charted__ConfigMap`]),
    spec: {
      sourceRef: { kind: 'GitRepository', name: 'repo' },
      dependsOn: [{ name: 'flux-a' }, { name: 'flux-gone' }],
    },
  },
  {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: meta('repo'),
  },
  {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmChart',
    metadata: meta(`${ns}-chart`),
    spec: { sourceRef: { kind: 'GitRepository', name: 'repo' } },
  },
  {
    apiVersion: 'fluxcd.controlplane.io/v1',
    kind: 'ResourceSet',
    metadata: meta('set'),
    spec: {
      dependsOn: [
        {
          apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
          kind: 'Kustomization',
          name: 'flux-c',
        },
      ],
    },
    status: {
      inventory: { entries: [{ id: `${ns}_tracked__ConfigMap`, v: 'v1' }] },
    },
  },
];
