import { KubeObject } from '../scenario/types';
import { isoSeconds, stableIp, stableSuffix, stableUid } from './ids';
import { controllerRef, deepClone, ExpandContext, simState } from './objects';
import { isPodReady } from './pods';

/** Services get addresses; their selected pods become EndpointSlices and Endpoints. */

function matchesSelector(
  labels: Record<string, string> = {},
  selector: Record<string, string>,
) {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

export function withServiceDefaults(
  input: KubeObject,
  ctx: ExpandContext,
): KubeObject {
  const service = deepClone(input);
  const headless = service.spec?.clusterIP === 'None';
  const clusterIP = headless
    ? 'None'
    : service.spec?.clusterIP ??
      stableIp(
        '10.96',
        `${ctx.cluster}/${service.metadata.namespace}/${service.metadata.name}`,
      );
  const type = service.spec?.type ?? 'ClusterIP';
  service.spec = {
    sessionAffinity: 'None',
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    internalTrafficPolicy: 'Cluster',
    ...service.spec,
    type,
    clusterIP,
    clusterIPs: [clusterIP],
    ports: (service.spec?.ports ?? []).map((p: any, i: number) => ({
      protocol: 'TCP',
      targetPort: p.port,
      ...(type === 'LoadBalancer' || type === 'NodePort'
        ? { nodePort: 30000 + ((i * 7919 + clusterIP.length * 131) % 2767) }
        : {}),
      ...p,
    })),
  };
  if (!service.status) {
    service.status = {
      loadBalancer:
        type === 'LoadBalancer' && simState(service) !== 'pending'
          ? {
              ingress: [
                {
                  ip: stableIp(
                    '203.0',
                    `${ctx.cluster}/${service.metadata.name}`,
                  ),
                  ipMode: 'VIP',
                },
              ],
            }
          : {},
    };
  }
  return service;
}

function resolvePort(target: any, pods: KubeObject[]): number {
  if (typeof target === 'number') return target;
  for (const pod of pods) {
    for (const container of pod.spec?.containers ?? []) {
      const port = (container.ports ?? []).find((p: any) => p.name === target);
      if (port) return port.containerPort;
    }
  }
  return Number(target) || 0;
}

/** The EndpointSlice and Endpoints the endpoint controllers write for a Service. */
export function endpointsForService(
  service: KubeObject,
  pods: KubeObject[],
  ctx: ExpandContext,
): KubeObject[] {
  const selector = service.spec?.selector;
  if (!selector || Object.keys(selector).length === 0) {
    return [];
  }
  const selected = pods.filter(
    p =>
      p.metadata.namespace === service.metadata.namespace &&
      !['Succeeded', 'Failed'].includes(p.status?.phase) &&
      p.status?.podIP &&
      matchesSelector(p.metadata.labels, selector),
  );
  const ports = (service.spec.ports ?? []).map((p: any) => ({
    ...(p.name ? { name: p.name } : {}),
    port: resolvePort(p.targetPort ?? p.port, selected),
    protocol: p.protocol ?? 'TCP',
  }));
  const { namespace, name } = service.metadata;
  const at = isoSeconds(ctx.now);
  const sliceName = `${name}-${stableSuffix(
    `${service.metadata.uid}/slice`,
    5,
  )}`;
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: sliceName,
      generateName: `${name}-`,
      namespace,
      uid: stableUid(`${ctx.cluster}/eps/${namespace}/${sliceName}`),
      creationTimestamp: service.metadata.creationTimestamp ?? at,
      generation: 1,
      labels: {
        ...service.metadata.labels,
        'endpointslice.kubernetes.io/managed-by':
          'endpointslice-controller.k8s.io',
        'kubernetes.io/service-name': name,
      },
      annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': at },
      ownerReferences: [controllerRef(service)],
    },
    addressType: 'IPv4',
    endpoints: selected.map(pod => {
      const ready = isPodReady(pod);
      return {
        addresses: [pod.status.podIP],
        conditions: { ready, serving: ready, terminating: false },
        nodeName: pod.spec?.nodeName,
        targetRef: {
          kind: 'Pod',
          name: pod.metadata.name,
          namespace,
          uid: pod.metadata.uid,
        },
      };
    }),
    ports,
  };
  const address = (pod: KubeObject) => ({
    ip: pod.status.podIP,
    nodeName: pod.spec?.nodeName,
    targetRef: {
      kind: 'Pod',
      name: pod.metadata.name,
      namespace,
      uid: pod.metadata.uid,
    },
  });
  const ready = selected.filter(isPodReady);
  const notReady = selected.filter(p => !isPodReady(p));
  const endpoints: KubeObject = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      name,
      namespace,
      uid: stableUid(`${ctx.cluster}/ep/${namespace}/${name}`),
      creationTimestamp: service.metadata.creationTimestamp ?? at,
      labels: { ...service.metadata.labels },
      annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': at },
    },
    ...(selected.length
      ? {
          subsets: [
            {
              ...(ready.length ? { addresses: ready.map(address) } : {}),
              ...(notReady.length
                ? { notReadyAddresses: notReady.map(address) }
                : {}),
              ports: ports.map((p: any) => ({ ...p })),
            },
          ],
        }
      : {}),
  };
  return [slice, endpoints];
}

export function withIngressStatus(
  input: KubeObject,
  ctx: ExpandContext,
): KubeObject {
  const ingress = deepClone(input);
  if (!ingress.status) {
    ingress.status = {
      loadBalancer:
        simState(ingress) === 'pending'
          ? {}
          : {
              ingress: [
                { ip: stableIp('203.0', `${ctx.cluster}/ingress-controller`) },
              ],
            },
    };
  }
  return ingress;
}
