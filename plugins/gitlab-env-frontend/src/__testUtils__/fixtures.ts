import {
  environmentDrift,
  EnvironmentResourcesResponse,
  GitlabEnvironment,
  HealthAssessment,
  KubernetesObject,
  ResourceEdgeType,
  summarizeGraphHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { graphFrom } from './graphFrom';

/**
 * The `drift` a backend's read carries for these objects: the state's drift
 * as its owner (LiveEnvironment) computes it, left out when nothing drifted.
 */
export function backendDrift(
  resources: EnvironmentResourcesResponse['resources'],
  graph: EnvironmentResourcesResponse['graph'],
): Pick<EnvironmentResourcesResponse, 'drift'> {
  const drift = environmentDrift(resources, graph);
  return Object.keys(drift).length > 0 ? { drift } : {};
}

// Relative to the clock, as the UI shows ages against the time data arrived.
const NOW = new Date().toISOString();
const HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();

export function environment(
  overrides: Partial<GitlabEnvironment> & { name: string },
): GitlabEnvironment {
  const slug = overrides.name.replace(/[^a-z0-9]+/g, '-');
  return {
    id: slug,
    slug,
    tier: 'development',
    state: 'available',
    namespace: `shop-${slug}`,
    agent: {
      id: '7',
      name: 'prod-agent',
      webUrl: 'https://gitlab.example.com/acme/agents/-/cluster_agents/prod',
    },
    lastDeployment: {
      iid: '42',
      status: 'success',
      ref: 'main',
      sha: '3f9a1c2d4e5f60718293a4b5c6d7e8f901234567',
      finishedAt: HOUR_AGO,
      webUrl: 'https://gitlab.example.com/acme/shop/-/deployments/42',
    },
    ...overrides,
  };
}

export const ENVIRONMENTS: GitlabEnvironment[] = [
  environment({ name: 'staging', tier: 'staging' }),
  environment({ name: 'review/feature-b', folder: 'review' }),
  environment({
    name: 'production',
    tier: 'production',
    externalUrl: 'https://shop.example.com',
  }),
  environment({ name: 'old-demo', tier: 'other', state: 'stopped' }),
  environment({ name: 'review/feature-a', folder: 'review' }),
];

function meta(kind: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    namespace: 'shop',
    uid: `uid-${kind}-${name}`,
    creationTimestamp: HOUR_AGO,
    labels: { app: name.split('-')[0] },
    ...extra,
  };
}

function pod(name: string, crashing = false): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('Pod', name),
    status: {
      phase: 'Running',
      containerStatuses: [
        crashing
          ? {
              name: 'app',
              ready: false,
              restartCount: 12,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
            }
          : { name: 'app', ready: true, restartCount: 0 },
      ],
    },
  };
}

/**
 * The shop's production: `web` (3 pods) behind a Service and an Ingress, and
 * `api` with 7 pods of which one crash-loops, plus a ConfigMap and an Event.
 */
export function shopResources(
  env: GitlabEnvironment = ENVIRONMENTS[2],
  errors: EnvironmentResourcesResponse['errors'] = [],
): EnvironmentResourcesResponse {
  const web: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('Deployment', 'web'),
    spec: { replicas: 3 },
    status: { readyReplicas: 3, replicas: 3 },
  };
  const webRs: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('ReplicaSet', 'web-5d8f'),
    spec: { replicas: 3 },
    status: { readyReplicas: 3, replicas: 3 },
  };
  const webPods = [0, 1, 2].map(i => pod(`web-5d8f-${i}`));
  const api: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('Deployment', 'api'),
    spec: { replicas: 7 },
    status: {
      readyReplicas: 6,
      replicas: 7,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
      ],
    },
  };
  const apiRs: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('ReplicaSet', 'api-7c9b'),
    spec: { replicas: 7 },
    status: { readyReplicas: 6, replicas: 7 },
  };
  const apiPods = [0, 1, 2, 3, 4, 5, 6].map(i => pod(`api-7c9b-${i}`, i === 3));
  const service: KubernetesObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta('Service', 'web'),
    spec: { type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP' }] },
  };
  const ingress: KubernetesObject = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta('Ingress', 'web'),
    spec: { rules: [{ host: 'shop.example.com' }] },
  };
  const config: KubernetesObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta('ConfigMap', 'api-config'),
    data: { LOG_LEVEL: 'info' },
  };
  const event: KubernetesObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta('Event', 'api-7c9b-3.1'),
    involvedObject: {
      kind: 'Pod',
      name: 'api-7c9b-3',
      namespace: 'shop',
      uid: 'uid-Pod-api-7c9b-3',
    },
    type: 'Warning',
    reason: 'BackOff',
    message: 'Back-off restarting failed container app',
    count: 12,
    lastTimestamp: NOW,
  };
  const objects = [
    ingress,
    service,
    web,
    webRs,
    ...webPods,
    api,
    apiRs,
    ...apiPods,
    config,
    event,
  ];
  const links: Array<[KubernetesObject, ResourceEdgeType, KubernetesObject]> = [
    [web, 'owns', webRs],
    ...webPods.map(p => [webRs, 'owns', p] as [any, ResourceEdgeType, any]),
    [api, 'owns', apiRs],
    ...apiPods.map(p => [apiRs, 'owns', p] as [any, ResourceEdgeType, any]),
    [ingress, 'routes', service],
    ...webPods.map(
      p => [service, 'selects', p] as [any, ResourceEdgeType, any],
    ),
    ...apiPods.map(p => [p, 'uses', config] as [any, ResourceEdgeType, any]),
  ];
  const healthOf = (object: KubernetesObject): HealthAssessment | undefined => {
    if (object.kind === 'Pod') {
      return object.metadata?.name === 'api-7c9b-3'
        ? {
            status: 'Degraded',
            message: 'Back-off restarting failed container',
          }
        : { status: 'Healthy' };
    }
    if (['ConfigMap', 'Event'].includes(object.kind!)) return undefined;
    if (object.metadata?.name?.startsWith('api')) {
      return {
        status: 'Progressing',
        message: '6 of 7 updated replicas are available',
      };
    }
    return { status: 'Healthy' };
  };
  const graph = graphFrom(objects, links, healthOf);
  return {
    entityRef: 'component:default/storefront',
    environment: env,
    scope: { namespace: 'shop' },
    resources: objects,
    graph,
    health: summarizeGraphHealth(graph),
    errors,
    fetchedAt: NOW,
  };
}

/** The environments route's answer for the storefront entity. */
export const environmentsResponse = (environments = ENVIRONMENTS) => ({
  entityRef: 'component:default/storefront',
  project: {
    instance: 'gitlab.example.com',
    id: '12',
    fullPath: 'acme/shop',
    webUrl: 'https://gitlab.example.com/acme/shop',
  },
  environments,
});
