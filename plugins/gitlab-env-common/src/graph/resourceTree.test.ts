import { KubernetesObject } from '../types';
import { buildResourceGraph } from './buildResourceGraph';
import { resourceTree, treePath } from './resourceTree';

const object = (
  apiVersion: string,
  kind: string,
  name: string,
  extra: object = {},
): KubernetesObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace: 'shop', uid: `uid-${kind}-${name}` },
  ...extra,
});

describe('resourceTree', () => {
  const deployment = object('apps/v1', 'Deployment', 'web');
  const replicaSet = object('apps/v1', 'ReplicaSet', 'web-1', {
    metadata: {
      name: 'web-1',
      namespace: 'shop',
      ownerReferences: [
        { kind: 'Deployment', name: 'web', uid: 'uid-Deployment-web' },
      ],
    },
  });
  const hpa = object('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', {
    spec: {
      scaleTargetRef: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
      },
    },
  });
  const service = object('v1', 'Service', 'web');
  const ingress = object('networking.k8s.io/v1', 'Ingress', 'web', {
    spec: { defaultBackend: { service: { name: 'web' } } },
  });
  const graph = buildResourceGraph([
    deployment,
    replicaSet,
    hpa,
    service,
    ingress,
  ]);
  const tree = resourceTree(graph);

  it('places what nothing owns right of the Ingress or HPA relating to it', () => {
    expect(tree.roots).toEqual([
      'autoscaling/HorizontalPodAutoscaler/shop/web',
      'networking.k8s.io/Ingress/shop/web',
    ]);
    expect(tree.children.get('networking.k8s.io/Ingress/shop/web')).toEqual([
      '/Service/shop/web',
    ]);
    // The engine's ownership stays as it is: the Service has no owner.
    expect(
      graph.nodes.find(n => n.kind === 'Service')!.parentId,
    ).toBeUndefined();
  });

  it('gives the drawer the same chain the graph draws, with each relation', () => {
    expect(treePath(tree, 'apps/ReplicaSet/shop/web-1')).toEqual([
      {
        parentId: 'autoscaling/HorizontalPodAutoscaler/shop/web',
        via: 'scales',
      },
      { parentId: 'apps/Deployment/shop/web', via: 'owns' },
    ]);
    expect(treePath(tree, 'networking.k8s.io/Ingress/shop/web')).toEqual([]);
  });

  it('never places a node below itself', () => {
    const loop = object('autoscaling/v2', 'HorizontalPodAutoscaler', 'loop', {
      spec: {
        scaleTargetRef: {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          name: 'back',
        },
      },
    });
    const back = object('autoscaling/v2', 'HorizontalPodAutoscaler', 'back', {
      spec: {
        scaleTargetRef: {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          name: 'loop',
        },
      },
    });
    const looped = resourceTree(buildResourceGraph([loop, back]));
    expect(looped.roots).toHaveLength(1);
    expect(looped.places.size).toBe(1);
  });
});
