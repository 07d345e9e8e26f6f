import { KubeObject } from '../scenario/types';
import { isoSeconds, stableIp, stableUid } from './ids';
import { eventsFor } from './events';
import { withHelmDriftStatus } from './helmDrift';
import {
  endpointsForService,
  withIngressStatus,
  withServiceDefaults,
} from './networking';
import { createdAt, ExpandContext, withServerMetadata } from './objects';
import {
  expandCronJob,
  expandDaemonSet,
  expandDeployment,
  expandJob,
  expandStatefulSet,
} from './workloads';

/**
 * Turns the manifests a team applies into what a cluster holds a while later:
 * the objects the controllers created from them, statuses, addresses, events.
 */
export interface ExpandOptions {
  /** Seeds uids and names; use the agent name. */
  cluster: string;
  now: Date;
  /** Worker nodes to create and schedule onto (default 3). */
  nodeCount?: number;
  kubernetesVersion?: string;
  /** Record Events (default true; benchmarks may skip them). */
  events?: boolean;
}

const DEFAULT_AGE_MS = 6 * 86400e3;

function buildNode(
  name: string,
  ctx: ExpandContext,
  version: string,
): KubeObject {
  const at = isoSeconds(new Date(ctx.now.getTime() - 30 * 86400e3));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: stableUid(`${ctx.cluster}/node/${name}`),
      creationTimestamp: at,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'e2-standard-4',
      },
    },
    spec: {
      podCIDR: `${stableIp('10.42', name)}/24`,
      providerID: `gce://acme/${name}`,
    },
    status: {
      addresses: [
        {
          type: 'InternalIP',
          address: stableIp('10.0', `${ctx.cluster}/${name}`),
        },
        { type: 'Hostname', address: name },
      ],
      capacity: { cpu: '4', memory: '16374440Ki', pods: '110' },
      allocatable: { cpu: '3920m', memory: '13594280Ki', pods: '110' },
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
        {
          type: 'DiskPressure',
          status: 'False',
          reason: 'KubeletHasNoDiskPressure',
          message: 'kubelet has no disk pressure',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
        {
          type: 'PIDPressure',
          status: 'False',
          reason: 'KubeletHasSufficientPID',
          message: 'kubelet has sufficient PID available',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
      ],
      nodeInfo: {
        architecture: 'amd64',
        containerRuntimeVersion: 'containerd://1.7.22',
        kernelVersion: '6.1.100+',
        kubeProxyVersion: version,
        kubeletVersion: version,
        operatingSystem: 'linux',
        osImage: 'Container-Optimized OS from Google',
      },
    },
  };
}

function buildNamespace(
  name: string,
  ctx: ExpandContext,
  created: Date,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: stableUid(`${ctx.cluster}/ns/${name}`),
      creationTimestamp: isoSeconds(created),
      labels: { 'kubernetes.io/metadata.name': name },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/** Status for HorizontalPodAutoscalers from the replicas of their target. */
function withHpaStatus(hpa: KubeObject, objects: KubeObject[]): KubeObject {
  if (hpa.status) return hpa;
  const ref = hpa.spec?.scaleTargetRef ?? {};
  const target = objects.find(
    o =>
      o.kind === ref.kind &&
      o.metadata.name === ref.name &&
      o.metadata.namespace === hpa.metadata.namespace,
  );
  const replicas = target?.spec?.replicas ?? hpa.spec?.minReplicas ?? 1;
  const at = hpa.metadata.creationTimestamp;
  return {
    ...hpa,
    status: {
      currentReplicas: replicas,
      desiredReplicas: replicas,
      conditions: [
        {
          type: 'AbleToScale',
          status: 'True',
          reason: 'ReadyForNewScale',
          message: 'recommended size matches current size',
          lastTransitionTime: at,
        },
        {
          type: 'ScalingActive',
          status: 'True',
          reason: 'ValidMetricFound',
          message:
            'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
          lastTransitionTime: at,
        },
        {
          type: 'ScalingLimited',
          status: 'False',
          reason: 'DesiredWithinRange',
          message: 'the desired count is within the acceptable range',
          lastTransitionTime: at,
        },
      ],
    },
  };
}

export function expandCluster(
  manifests: KubeObject[],
  options: ExpandOptions,
): KubeObject[] {
  const nodeCount = options.nodeCount ?? 3;
  const version = options.kubernetesVersion ?? 'v1.31.4';
  const declaredNodes = manifests
    .filter(m => m.kind === 'Node')
    .map(m => m.metadata.name);
  const ctx: ExpandContext = {
    cluster: options.cluster,
    now: options.now,
    nodes: declaredNodes.length
      ? declaredNodes
      : Array.from(
          { length: nodeCount },
          (_, i) => `${options.cluster}-pool-${i + 1}`,
        ),
  };
  const out: KubeObject[] = declaredNodes.length
    ? []
    : ctx.nodes.map(n => buildNode(n, ctx, version));

  const declaredNamespaces = new Set(
    manifests.filter(m => m.kind === 'Namespace').map(m => m.metadata.name),
  );
  const namespaces = new Set(['default', 'kube-system']);
  manifests.forEach(
    m => m.metadata.namespace && namespaces.add(m.metadata.namespace),
  );
  for (const ns of namespaces) {
    if (!declaredNamespaces.has(ns)) {
      out.push(
        buildNamespace(ns, ctx, new Date(ctx.now.getTime() - 30 * 86400e3)),
      );
    }
  }

  const services: KubeObject[] = [];
  for (const manifest of manifests) {
    const created = createdAt(manifest, ctx, DEFAULT_AGE_MS);
    const object = withServerMetadata(manifest, ctx, created);
    switch (object.kind) {
      case 'Deployment':
        out.push(...expandDeployment(object, created, ctx));
        break;
      case 'StatefulSet':
        out.push(...expandStatefulSet(object, created, ctx));
        break;
      case 'DaemonSet':
        out.push(...expandDaemonSet(object, created, ctx));
        break;
      case 'CronJob':
        out.push(...expandCronJob(object, created, ctx));
        break;
      case 'Job':
        out.push(...expandJob(object, created, ctx));
        break;
      case 'Service':
        services.push(withServiceDefaults(object, ctx));
        break;
      case 'Ingress':
        out.push(withIngressStatus(object, ctx));
        break;
      case 'HelmRelease':
        out.push(withHelmDriftStatus(object, ctx.now));
        break;
      case 'Namespace':
        out.push({
          ...buildNamespace(object.metadata.name, ctx, created),
          ...object,
          status: object.status ?? { phase: 'Active' },
        });
        break;
      default:
        out.push(object);
    }
  }
  const podsByNamespace = new Map<string, KubeObject[]>();
  for (const pod of out.filter(o => o.kind === 'Pod')) {
    const list = podsByNamespace.get(pod.metadata.namespace!) ?? [];
    list.push(pod);
    podsByNamespace.set(pod.metadata.namespace!, list);
  }
  for (const service of services) {
    out.push(
      service,
      ...endpointsForService(
        service,
        podsByNamespace.get(service.metadata.namespace!) ?? [],
        ctx,
      ),
    );
  }
  const withHpa = out.map(o =>
    o.kind === 'HorizontalPodAutoscaler' ? withHpaStatus(o, out) : o,
  );
  if (options.events === false) {
    return withHpa;
  }
  return [...withHpa, ...withHpa.flatMap(o => eventsFor(o, withHpa, ctx))];
}
