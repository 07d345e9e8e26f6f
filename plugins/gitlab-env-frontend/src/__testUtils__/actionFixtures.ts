import {
  ActionsAllowedRequest,
  ActionsAllowedResponse,
  EnvironmentCapability,
  EnvironmentResourcesResponse,
  KubernetesObject,
  capabilitiesForKind,
  summarizeGraphHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { HttpResponse, http } from 'msw';
import { ENVIRONMENTS } from './fixtures';
import { ENTITY_URL } from './renderTab';
import { graphFrom } from './graphFrom';

const NOW = new Date().toISOString();

function meta(name: string, extra: Record<string, unknown> = {}) {
  return { name, namespace: 'shop', uid: `uid-${name}`, ...extra };
}

/**
 * An environment Flux deploys: a Kustomization from a GitRepository managing
 * a Deployment `cart` that an HPA scales, with one pod of two containers, an
 * init and an ephemeral container.
 */
export function fluxResources({
  suspended = false,
}: { suspended?: boolean } = {}): EnvironmentResourcesResponse {
  const source: KubernetesObject = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: meta('shop-repo'),
    spec: { url: 'https://gitlab.example.com/acme/shop.git' },
  };
  const kustomization: KubernetesObject = {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: meta('shop'),
    spec: {
      suspend: suspended,
      sourceRef: { kind: 'GitRepository', name: 'shop-repo' },
    },
  };
  const cart: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('cart'),
    spec: { replicas: 2 },
    status: { replicas: 2, readyReplicas: 2 },
  };
  const hpa: KubernetesObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta('cart'),
    spec: { minReplicas: 2, maxReplicas: 6 },
  };
  const rs: KubernetesObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('cart-6f7d'),
    spec: { replicas: 2 },
  };
  const pod = (name: string): KubernetesObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name),
    spec: {
      initContainers: [{ name: 'migrate' }],
      containers: [{ name: 'app' }, { name: 'proxy' }],
      ephemeralContainers: [{ name: 'debugger' }],
    },
    status: { phase: 'Running' },
  });
  const pods = [pod('cart-6f7d-a'), pod('cart-6f7d-b')];
  const objects = [source, kustomization, hpa, cart, rs, ...pods];
  const graph = graphFrom(
    objects,
    [
      [kustomization, 'manages', cart],
      [kustomization, 'uses', source],
      [hpa, 'scales', cart],
      [cart, 'owns', rs],
      [rs, 'owns', pods[0]],
      [rs, 'owns', pods[1]],
    ],
    () => ({ status: 'Healthy' }),
  );
  return {
    entityRef: 'component:default/storefront',
    environment: ENVIRONMENTS[2],
    scope: { namespace: 'shop' },
    resources: objects,
    graph,
    health: summarizeGraphHealth(graph),
    errors: [],
    fetchedAt: NOW,
  };
}

/**
 * The allowed route's answer: every capability of each target's kind
 * allowed, except those `denied` names, with its reason.
 */
export function allowedAnswer(
  request: ActionsAllowedRequest,
  denied: Partial<Record<EnvironmentCapability, string>> = {},
): ActionsAllowedResponse {
  return {
    targets: request.targets.map(target => ({
      target,
      decisions: Object.fromEntries(
        capabilitiesForKind(target.apiVersion, target.kind).map(capability => [
          capability,
          denied[capability]
            ? { allowed: false, reason: denied[capability] }
            : { allowed: true },
        ]),
      ),
    })),
  };
}

/** The allowed route of every environment, answering with `allowedAnswer`. */
export function allowedRoute(
  denied: Partial<Record<EnvironmentCapability, string>> = {},
) {
  return http.post(
    `${ENTITY_URL}/environments/:slug/actions/allowed`,
    async ({ request }) =>
      HttpResponse.json(
        allowedAnswer((await request.json()) as ActionsAllowedRequest, denied),
      ),
  );
}
