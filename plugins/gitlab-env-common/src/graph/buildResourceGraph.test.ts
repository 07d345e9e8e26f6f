import { KubernetesObject } from '../types';
import { buildResourceGraph } from './buildResourceGraph';

const ns = 'shop';
const meta = (name: string, extra: object = {}) => ({
  name,
  namespace: ns,
  uid: `uid-${name}`,
  ...extra,
});
const ownedBy = (kind: string, name: string) => ({
  ownerReferences: [
    { apiVersion: 'apps/v1', kind, name, uid: `uid-${name}`, controller: true },
  ],
});

const deployment: KubernetesObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: meta('web', { generation: 1 }),
  spec: { replicas: 1 },
  status: {
    observedGeneration: 1,
    replicas: 1,
    updatedReplicas: 1,
    availableReplicas: 1,
  },
};
const replicaSet: KubernetesObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: meta('web-5d8f', ownedBy('Deployment', 'web')),
  spec: { replicas: 1 },
  status: { availableReplicas: 1 },
};
const pod: KubernetesObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta('web-5d8f-x1', {
    ...ownedBy('ReplicaSet', 'web-5d8f'),
    labels: { app: 'web', tier: 'front' },
  }),
  spec: {
    restartPolicy: 'Always',
    volumes: [
      { name: 'cfg', configMap: { name: 'web-config' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'uploads' } },
      {
        name: 'tls',
        projected: { sources: [{ secret: { name: 'web-tls' } }] },
      },
    ],
    containers: [
      {
        name: 'app',
        envFrom: [{ secretRef: { name: 'web-env' } }],
        env: [
          {
            name: 'X',
            valueFrom: { configMapKeyRef: { name: 'flags', key: 'x' } },
          },
        ],
      },
    ],
  },
  status: {
    phase: 'Running',
    containerStatuses: [
      {
        name: 'app',
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } },
      },
    ],
  },
};
const otherPod: KubernetesObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta('batch-1', { labels: { app: 'web' } }),
};
const service: KubernetesObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: meta('web', { uid: 'uid-service-web' }),
  spec: { selector: { app: 'web', tier: 'front' } },
};
const slice: KubernetesObject = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: meta('web-abc12', {
    labels: { 'kubernetes.io/service-name': 'web' },
  }),
};
const ingress: KubernetesObject = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: meta('web', { uid: 'uid-ingress-web' }),
  spec: {
    rules: [
      {
        http: {
          paths: [
            {
              path: '/',
              backend: { service: { name: 'web', port: { number: 80 } } },
            },
          ],
        },
      },
    ],
  },
};
const hpa: KubernetesObject = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: meta('web', { uid: 'uid-hpa-web' }),
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
  },
};
const plain = (
  kind: string,
  name: string,
  extra: object = {},
): KubernetesObject => ({
  apiVersion: 'v1',
  kind,
  metadata: meta(name),
  ...extra,
});

const edgesOf = (objects: KubernetesObject[]) =>
  buildResourceGraph(objects)
    .edges.map(e => `${e.source} -${e.type}-> ${e.target}`)
    .sort();

describe('buildResourceGraph', () => {
  const objects = [
    deployment,
    replicaSet,
    pod,
    otherPod,
    service,
    slice,
    ingress,
    hpa,
    plain('ConfigMap', 'web-config'),
    plain('ConfigMap', 'flags'),
    plain('Secret', 'web-tls'),
    plain('Secret', 'web-env'),
    plain('PersistentVolumeClaim', 'uploads', { status: { phase: 'Bound' } }),
  ];

  it('infers every edge type from real references', () => {
    expect(edgesOf(objects)).toEqual([
      '/Pod/shop/web-5d8f-x1 -mounts-> /PersistentVolumeClaim/shop/uploads',
      '/Pod/shop/web-5d8f-x1 -uses-> /ConfigMap/shop/flags',
      '/Pod/shop/web-5d8f-x1 -uses-> /ConfigMap/shop/web-config',
      '/Pod/shop/web-5d8f-x1 -uses-> /Secret/shop/web-env',
      '/Pod/shop/web-5d8f-x1 -uses-> /Secret/shop/web-tls',
      '/Service/shop/web -owns-> discovery.k8s.io/EndpointSlice/shop/web-abc12',
      '/Service/shop/web -selects-> /Pod/shop/web-5d8f-x1',
      'apps/Deployment/shop/web -owns-> apps/ReplicaSet/shop/web-5d8f',
      'apps/ReplicaSet/shop/web-5d8f -owns-> /Pod/shop/web-5d8f-x1',
      'autoscaling/HorizontalPodAutoscaler/shop/web -scales-> apps/Deployment/shop/web',
      'networking.k8s.io/Ingress/shop/web -routes-> /Service/shop/web',
    ]);
  });

  it('builds the ownership forest with subtree health', () => {
    const graph = buildResourceGraph(objects);
    const byId = new Map(graph.nodes.map(n => [n.id, n]));
    const dep = byId.get('apps/Deployment/shop/web')!;
    expect(dep.health?.status).toBe('Healthy');
    expect(dep.subtreeHealth).toBe('Degraded');
    expect(dep.childIds).toEqual(['apps/ReplicaSet/shop/web-5d8f']);
    expect(byId.get('/Pod/shop/web-5d8f-x1')!.parentId).toBe(
      'apps/ReplicaSet/shop/web-5d8f',
    );
    expect(graph.roots).toContain('apps/Deployment/shop/web');
    expect(graph.roots).not.toContain('/Pod/shop/web-5d8f-x1');
    expect(byId.get('/Pod/shop/web-5d8f-x1')!.uid).toBe('uid-web-5d8f-x1');
  });

  it('links a StatefulSet to its claims and a token Secret to its ServiceAccount', () => {
    const sts: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta('db'),
      spec: { volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
    };
    expect(
      edgesOf([
        sts,
        plain('PersistentVolumeClaim', 'data-db-0'),
        plain('PersistentVolumeClaim', 'data-db-1'),
        plain('PersistentVolumeClaim', 'data-db-backup'),
        plain('ServiceAccount', 'deployer'),
        plain('Secret', 'deployer-token', {
          type: 'kubernetes.io/service-account-token',
          metadata: meta('deployer-token', {
            annotations: { 'kubernetes.io/service-account.name': 'deployer' },
          }),
        }),
        plain('Endpoints', 'db'),
        plain('Service', 'db'),
      ]),
    ).toEqual([
      '/Service/shop/db -owns-> /Endpoints/shop/db',
      '/ServiceAccount/shop/deployer -owns-> /Secret/shop/deployer-token',
      'apps/StatefulSet/shop/db -mounts-> /PersistentVolumeClaim/shop/data-db-0',
      'apps/StatefulSet/shop/db -mounts-> /PersistentVolumeClaim/shop/data-db-1',
    ]);
  });

  it('manages a Kustomization inventory and marks entries the cluster lacks as Missing', () => {
    const kustomization: KubernetesObject = {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'checkout', namespace: 'flux-system', uid: 'uid-ks' },
      status: {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' },
        ],
        inventory: {
          entries: [
            { id: 'shop_web_apps_Deployment', v: 'v1' },
            { id: 'shop_checkout-worker_apps_Deployment', v: 'v1' },
            {
              id: '_system__checkout_rbac.authorization.k8s.io_ClusterRole',
              v: 'v1',
            },
          ],
        },
      },
    };
    const graph = buildResourceGraph([
      kustomization,
      deployment,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'system:checkout' },
      },
    ]);
    const missing = graph.nodes.find(n => n.name === 'checkout-worker')!;
    expect(missing).toMatchObject({
      missing: true,
      health: { status: 'Missing' },
      parentId:
        'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/checkout',
    });
    expect(missing.resourceVersion).toBeUndefined();
    expect(graph.nodes.find(n => n.kind === 'ClusterRole')!.parentId).toBe(
      'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/checkout',
    );
    expect(
      graph.nodes.find(n => n.kind === 'Kustomization')!.subtreeHealth,
    ).toBe('Missing');
  });

  it('manages HelmRelease objects by label and cli-utils inventories by annotation', () => {
    const release: KubernetesObject = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'web', namespace: 'flux-system' },
    };
    const labelled = {
      ...deployment,
      metadata: {
        ...deployment.metadata,
        labels: {
          'helm.toolkit.fluxcd.io/name': 'web',
          'helm.toolkit.fluxcd.io/namespace': 'flux-system',
        },
      },
    };
    const inventory = plain('ConfigMap', 'inventory', {
      metadata: meta('inventory', {
        labels: { 'cli-utils.sigs.k8s.io/inventory-id': 'inv-1' },
      }),
    });
    const tracked = plain('ConfigMap', 'tracked', {
      metadata: meta('tracked', {
        annotations: { 'config.k8s.io/owning-inventory': 'inv-1' },
      }),
    });
    expect(edgesOf([release, labelled, inventory, tracked])).toEqual([
      '/ConfigMap/shop/inventory -manages-> /ConfigMap/shop/tracked',
      'helm.toolkit.fluxcd.io/HelmRelease/flux-system/web -manages-> apps/Deployment/shop/web',
    ]);
  });

  it('survives cycles, dangling references, self-owners and duplicates', () => {
    const a = plain('ConfigMap', 'a', {
      metadata: meta('a', {
        ownerReferences: [{ kind: 'ConfigMap', name: 'b', uid: 'uid-b' }],
      }),
    });
    const b = plain('ConfigMap', 'b', {
      metadata: meta('b', {
        ownerReferences: [{ kind: 'ConfigMap', name: 'a', uid: 'uid-a' }],
      }),
    });
    const self = plain('ConfigMap', 'self', {
      metadata: meta('self', {
        ownerReferences: [{ kind: 'ConfigMap', name: 'self', uid: 'uid-self' }],
      }),
    });
    const dangling = plain('Pod', 'orphan', {
      metadata: meta('orphan', {
        ownerReferences: [
          { kind: 'ReplicaSet', name: 'gone', uid: 'uid-gone' },
        ],
      }),
    });
    const graph = buildResourceGraph([a, b, self, dangling, a]);
    expect(graph.nodes.map(n => n.id).sort()).toEqual([
      '/ConfigMap/shop/a',
      '/ConfigMap/shop/b',
      '/ConfigMap/shop/self',
      '/Pod/shop/orphan',
    ]);
    expect(graph.roots.length).toBeGreaterThanOrEqual(3);
    expect(graph.nodes.find(n => n.name === 'a')!.uid).toBe('uid-a');
  });

  it('handles a chain of 50,000 owners without recursion', () => {
    const chain: KubernetesObject[] = Array.from({ length: 50_000 }, (_, i) =>
      plain('ConfigMap', `c${i}`, {
        metadata: meta(
          `c${i}`,
          i > 0
            ? {
                ownerReferences: [
                  {
                    kind: 'ConfigMap',
                    name: `c${i - 1}`,
                    uid: `uid-c${i - 1}`,
                  },
                ],
              }
            : {},
        ),
      }),
    );
    chain[49_999] = {
      ...chain[49_999],
      kind: 'Pod',
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'app', state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
    };
    const graph = buildResourceGraph(chain);
    expect(graph.roots).toEqual(['/ConfigMap/shop/c0']);
    expect(graph.nodes).toHaveLength(50_000);
    // The pod's health at the bottom reaches the top of the chain.
    const bottom = graph.nodes.find(n => n.kind === 'Pod')!;
    expect(bottom.health?.status).toMatch(/Degraded|Unknown/);
    expect(graph.nodes[0].subtreeHealth).toBe(bottom.health?.status);
  });

  it('keeps the duplicate with the newest resourceVersion', () => {
    const at = (resourceVersion: string, replicas: number) =>
      plain('ConfigMap', 'settings', {
        metadata: meta('settings', { resourceVersion }),
        data: { replicas },
      });
    const graph = buildResourceGraph([at('1000', 1), at('999', 2)]);
    expect(graph.nodes).toHaveLength(1);
    expect(graph.nodes[0].resourceVersion).toBe('1000');
    expect(
      buildResourceGraph([at('999', 1), at('1000', 2)]).nodes[0]
        .resourceVersion,
    ).toBe('1000');
  });

  it('prefers the controller owner, then owners over managers, as tree parent', () => {
    const pod2 = plain('Pod', 'p', {
      metadata: meta('p', {
        labels: {
          'helm.toolkit.fluxcd.io/name': 'web',
          'helm.toolkit.fluxcd.io/namespace': ns,
        },
        ownerReferences: [
          { kind: 'ConfigMap', name: 'first' },
          { kind: 'ReplicaSet', name: 'rs', controller: true },
        ],
      }),
    });
    const graph = buildResourceGraph([
      {
        apiVersion: 'helm.toolkit.fluxcd.io/v2',
        kind: 'HelmRelease',
        metadata: meta('web'),
      },
      plain('ConfigMap', 'first', {
        metadata: { name: 'first', namespace: ns },
      }),
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs', namespace: ns },
      },
      pod2,
    ]);
    const byId = new Map(graph.nodes.map(n => [n.id, n]));
    // Owner references without uid resolve by kind and name.
    expect(byId.get('/Pod/shop/p')!.parentId).toBe('apps/ReplicaSet/shop/rs');
    expect(graph.edges.filter(e => e.target === '/Pod/shop/p')).toHaveLength(3);
    expect(byId.get('apps/ReplicaSet/shop/rs')!.childIds).toEqual([
      '/Pod/shop/p',
    ]);
  });

  it('routes legacy extensions Ingresses and default backends', () => {
    const legacy: KubernetesObject = {
      apiVersion: 'extensions/v1beta1',
      kind: 'Ingress',
      metadata: meta('old'),
      spec: {
        backend: { serviceName: 'fallback', servicePort: 80 },
        rules: [
          {
            http: {
              paths: [{ backend: { serviceName: 'api', servicePort: 80 } }],
            },
          },
        ],
      },
    };
    const modern: KubernetesObject = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: meta('new'),
      spec: { defaultBackend: { service: { name: 'fallback' } } },
    };
    expect(
      edgesOf([
        legacy,
        modern,
        plain('Service', 'fallback'),
        plain('Service', 'api'),
      ]),
    ).toEqual([
      'extensions/Ingress/shop/old -routes-> /Service/shop/api',
      'extensions/Ingress/shop/old -routes-> /Service/shop/fallback',
      'networking.k8s.io/Ingress/shop/new -routes-> /Service/shop/fallback',
    ]);
  });

  it('reads config from init containers and leaves health-less subtrees without roll-up', () => {
    const initPod = plain('Pod', 'init', {
      spec: {
        initContainers: [
          {
            name: 'migrate',
            env: [
              {
                name: 'DB',
                valueFrom: { secretKeyRef: { name: 'db-url', key: 'url' } },
              },
            ],
          },
        ],
      },
    });
    const graph = buildResourceGraph([initPod, plain('Secret', 'db-url')]);
    expect(graph.edges).toEqual([
      { source: '/Pod/shop/init', target: '/Secret/shop/db-url', type: 'uses' },
    ]);
    expect(
      graph.nodes.find(n => n.kind === 'Secret')!.subtreeHealth,
    ).toBeUndefined();
  });

  it('selects pods by every pair of the selector, in the Service namespace only', () => {
    const labelled = (
      name: string,
      namespace: string,
      labels: Record<string, string>,
    ): KubernetesObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace, labels },
    });
    expect(
      edgesOf([
        plain('Service', 'api', {
          spec: {
            selector: { app: 'api', 'app.kubernetes.io/part-of': 'shop' },
          },
        }),
        labelled('api-1', ns, {
          app: 'api',
          'app.kubernetes.io/part-of': 'shop',
        }),
        labelled('api-2', ns, { app: 'api' }),
        labelled('web-1', ns, {
          app: 'web',
          'app.kubernetes.io/part-of': 'shop',
        }),
        labelled('api-1', 'other', {
          app: 'api',
          'app.kubernetes.io/part-of': 'shop',
        }),
        plain('Service', 'headless', { spec: { clusterIP: 'None' } }),
      ]),
    ).toEqual(['/Service/shop/api -selects-> /Pod/shop/api-1']);
  });
});
