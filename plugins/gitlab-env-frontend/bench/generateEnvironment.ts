import {
  EnvironmentResourcesResponse,
  KubernetesObject,
  ResourceEdgeType,
  ResourceGraph,
  summarizeGraphHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { graphFrom } from '../src/__testUtils__/graphFrom';

type Link = [KubernetesObject, ResourceEdgeType, KubernetesObject];

/**
 * A realistic environment of about `size` resources: apps of a Deployment
 * with its current and two old ReplicaSets, 2–8 pods, a Service selecting
 * them, an Ingress, an HPA, a ConfigMap the pods use and a few Events; every
 * fifth app a StatefulSet with PersistentVolumeClaims instead. Deterministic
 * for a given size.
 */
export function generateEnvironment(size: number): {
  resources: KubernetesObject[];
  graph: ResourceGraph;
} {
  const objects: KubernetesObject[] = [];
  const links: Link[] = [];
  const make = (apiVersion: string, kind: string, name: string) => {
    const object: KubernetesObject = {
      apiVersion,
      kind,
      metadata: { name, namespace: 'bench', uid: `${kind}-${name}` },
    };
    objects.push(object);
    return object;
  };
  let random = 42;
  const next = (max: number) => {
    random = (random * 1103515245 + 12345) % 2 ** 31;
    return random % max;
  };
  for (let app = 0; objects.length < size; app++) {
    const name = `app-${app}`;
    const service = make('v1', 'Service', name);
    links.push([
      make('networking.k8s.io/v1', 'Ingress', name),
      'routes',
      service,
    ]);
    const config = make('v1', 'ConfigMap', `${name}-config`);
    const pods: KubernetesObject[] = [];
    if (app % 5 === 4) {
      const sts = make('apps/v1', 'StatefulSet', name);
      for (let i = 0; i < 3; i++) {
        const pod = make('v1', 'Pod', `${name}-${i}`);
        const pvc = make('v1', 'PersistentVolumeClaim', `data-${name}-${i}`);
        links.push([sts, 'owns', pod], [pod, 'mounts', pvc]);
        pods.push(pod);
      }
    } else {
      const deployment = make('apps/v1', 'Deployment', name);
      links.push([
        make('autoscaling/v2', 'HorizontalPodAutoscaler', name),
        'scales',
        deployment,
      ]);
      for (let revision = 0; revision < 3; revision++) {
        const rs = make('apps/v1', 'ReplicaSet', `${name}-rs${revision}`);
        links.push([deployment, 'owns', rs]);
        const count = revision === 0 ? 2 + next(7) : 0;
        for (let i = 0; i < count; i++) {
          const pod = make('v1', 'Pod', `${name}-rs${revision}-${i}`);
          links.push([rs, 'owns', pod]);
          pods.push(pod);
        }
      }
    }
    for (const pod of pods) {
      links.push([service, 'selects', pod], [pod, 'uses', config]);
    }
    for (let i = 0; i < next(3); i++) make('v1', 'Event', `${name}.${i}`);
  }
  const health = (object: KubernetesObject) =>
    ['ConfigMap', 'Event', 'Service'].includes(object.kind!)
      ? undefined
      : {
          status: next(20) === 0 ? ('Degraded' as const) : ('Healthy' as const),
        };
  return { resources: objects, graph: graphFrom(objects, links, health) };
}

/**
 * A read's answer of an environment of these objects, as the backend
 * would send it (`environmentTree` of it is what the page draws).
 */
export function environmentResponse(
  name: string,
  namespace: string,
  resources: KubernetesObject[],
  graph: ResourceGraph,
): EnvironmentResourcesResponse {
  return {
    entityRef: 'component:default/generated',
    environment: {
      id: name,
      name,
      slug: name,
      tier: 'development',
      state: 'available',
      namespace,
    },
    scope: { namespace },
    resources,
    graph,
    health: summarizeGraphHealth(graph),
    errors: [],
    fetchedAt: new Date().toISOString(),
  };
}
