import { KubeObject } from '../scenario/types';
import {
  isoSeconds,
  stableHex,
  stableIp,
  stableNumber,
  stableUid,
} from './ids';
import { controllerRef, deepClone, ExpandContext } from './objects';

/** How a simulated pod behaves; each maps to what kubelet reports for it. */
export type PodState =
  | 'running'
  | 'starting'
  | 'crashloop'
  | 'image-pull'
  | 'node-lost'
  | 'pending'
  | 'succeeded'
  | 'failed';

export interface PodInput {
  name: string;
  namespace: string;
  template: {
    metadata?: {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    };
    spec?: any;
  };
  owner?: KubeObject;
  extraLabels?: Record<string, string>;
  /** Extra volumes, e.g. a StatefulSet's claims. */
  extraVolumes?: any[];
  state: PodState;
  created: Date;
  ctx: ExpandContext;
  /** Distinguishes a pod recreated under the same name (new uid). */
  incarnation?: string;
}

const CRASHLOOP_RESTARTS = 17;

function condition(
  type: string,
  status: boolean,
  at: string,
  reason?: string,
  message?: string,
) {
  return {
    type,
    status: status ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: at,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

function containerStatus(
  container: any,
  pod: PodInput,
  uid: string,
  at: string,
) {
  const base = {
    name: container.name,
    image: container.image,
    imageID: `${String(container.image).split(':')[0]}@sha256:${stableHex(
      `${container.image}`,
      64,
    )}`,
    containerID: `containerd://${stableHex(`${uid}/${container.name}`, 64)}`,
  };
  switch (pod.state) {
    case 'running':
      return {
        ...base,
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: at } },
      };
    case 'crashloop':
      return {
        ...base,
        ready: false,
        started: false,
        restartCount: CRASHLOOP_RESTARTS,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off 5m0s restarting failed container=${container.name} pod=${pod.name}_${pod.namespace}(${uid})`,
          },
        },
        lastState: {
          terminated: {
            exitCode: 1,
            reason: 'Error',
            startedAt: isoSeconds(new Date(pod.ctx.now.getTime() - 95e3)),
            finishedAt: isoSeconds(new Date(pod.ctx.now.getTime() - 92e3)),
            containerID: base.containerID,
          },
        },
      };
    case 'image-pull':
      return {
        name: base.name,
        image: base.image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: {
          waiting: {
            reason: 'ImagePullBackOff',
            message: `Back-off pulling image "${container.image}"`,
          },
        },
      };
    case 'starting':
    case 'pending':
      return {
        name: base.name,
        image: base.image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'ContainerCreating' } },
      };
    case 'node-lost':
      return {
        ...base,
        ready: false,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: at } },
      };
    case 'succeeded':
    case 'failed':
    default:
      return {
        ...base,
        ready: false,
        started: false,
        restartCount: 0,
        state: {
          terminated: {
            exitCode: pod.state === 'succeeded' ? 0 : 1,
            reason: pod.state === 'succeeded' ? 'Completed' : 'Error',
            startedAt: at,
            finishedAt: isoSeconds(new Date(new Date(at).getTime() + 42e3)),
            containerID: base.containerID,
          },
        },
      };
  }
}

function podStatus(
  input: PodInput,
  spec: any,
  uid: string,
  nodeName: string | undefined,
) {
  const at = isoSeconds(input.created);
  const containers: any[] = spec.containers ?? [];
  const names = containers.map(c => c.name).join(' ');
  const statuses = containers.map(c => containerStatus(c, input, uid, at));
  const scheduled = input.state !== 'pending';
  const ready = input.state === 'running';
  const running = ['running', 'crashloop', 'node-lost'].includes(input.state);
  const phase = {
    running: 'Running',
    crashloop: 'Running',
    starting: 'Pending',
    'image-pull': 'Pending',
    pending: 'Pending',
    'node-lost': 'Unknown',
    succeeded: 'Succeeded',
    failed: 'Failed',
  }[input.state];
  const notReadyReason = ['succeeded', 'failed'].includes(input.state)
    ? 'PodCompleted'
    : 'ContainersNotReady';
  // kubelet sets reason and message only while the condition is False and
  // clears both when it turns True (pkg/kubelet/status/generate.go,
  // GeneratePodReadyCondition / GenerateContainersReadyCondition).
  const notReadyMessage =
    !ready && notReadyReason === 'ContainersNotReady'
      ? `containers with unready status: [${names}]`
      : undefined;
  const status: any = {
    phase,
    conditions: scheduled
      ? [
          condition('PodReadyToStartContainers', running || ready, at),
          condition('Initialized', true, at),
          condition(
            'Ready',
            ready,
            at,
            ready ? undefined : notReadyReason,
            notReadyMessage,
          ),
          condition(
            'ContainersReady',
            ready,
            at,
            ready ? undefined : notReadyReason,
            notReadyMessage,
          ),
          condition('PodScheduled', true, at),
        ]
      : [
          condition(
            'PodScheduled',
            false,
            at,
            'Unschedulable',
            `0/${input.ctx.nodes.length} nodes are available: ${input.ctx.nodes.length} Insufficient memory. preemption: 0/${input.ctx.nodes.length} nodes are available: ${input.ctx.nodes.length} No preemption victims found for incoming pod.`,
          ),
        ],
    qosClass: 'Burstable',
  };
  if (scheduled) {
    status.hostIP = stableIp('10.0', `${input.ctx.cluster}/${nodeName}`);
    status.hostIPs = [{ ip: status.hostIP }];
    status.startTime = at;
    status.containerStatuses = statuses;
    if (input.state !== 'starting' && input.state !== 'image-pull') {
      status.podIP = stableIp('10.42', uid);
      status.podIPs = [{ ip: status.podIP }];
    }
  }
  if (input.state === 'node-lost') {
    status.reason = 'NodeLost';
    status.message = `Node ${nodeName} which was running pod ${input.name} is unresponsive`;
  }
  return status;
}

function defaultContainer(container: any) {
  return {
    imagePullPolicy: 'IfNotPresent',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    ...container,
  };
}

/** A Pod as the scheduler and kubelet leave it for the given behaviour. */
export function buildPod(input: PodInput): KubeObject {
  const seed = `${input.ctx.cluster}/pod/${input.namespace}/${input.name}`;
  const uid = stableUid(
    input.incarnation ? `${seed}#${input.incarnation}` : seed,
  );
  const templateSpec = deepClone(input.template.spec ?? {});
  const nodeName =
    input.state === 'pending'
      ? undefined
      : input.ctx.nodes[stableNumber(seed, input.ctx.nodes.length)];
  const spec = {
    restartPolicy: 'Always',
    dnsPolicy: 'ClusterFirst',
    schedulerName: 'default-scheduler',
    serviceAccountName: 'default',
    terminationGracePeriodSeconds: 30,
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: 0,
    securityContext: {},
    ...templateSpec,
    containers: (templateSpec.containers ?? []).map(defaultContainer),
    volumes: [...(templateSpec.volumes ?? []), ...(input.extraVolumes ?? [])],
    ...(nodeName ? { nodeName } : {}),
  };
  if (spec.volumes.length === 0) {
    delete spec.volumes;
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      uid,
      creationTimestamp: isoSeconds(input.created),
      labels: {
        ...(input.template.metadata?.labels ?? {}),
        ...(input.extraLabels ?? {}),
      },
      ...(input.template.metadata?.annotations
        ? { annotations: { ...input.template.metadata.annotations } }
        : {}),
      ...(input.owner ? { ownerReferences: [controllerRef(input.owner)] } : {}),
    },
    spec,
    status: podStatus(input, spec, uid, nodeName),
  };
}

export function isPodReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some(
    (c: any) => c.type === 'Ready' && c.status === 'True',
  );
}

/** Restart count used for crash-looping pods (events and logs mention it). */
export const CRASHLOOP_RESTART_COUNT = CRASHLOOP_RESTARTS;

/**
 * The same pod as kubelet reports it once it reaches `state` now: identity,
 * spec and node kept, status rewritten (a pod's life: Pending → Running …).
 */
export function restatePod(
  pod: KubeObject,
  state: PodState,
  ctx: ExpandContext,
): KubeObject {
  const input: PodInput = {
    name: pod.metadata.name,
    namespace: pod.metadata.namespace!,
    template: { spec: pod.spec },
    state,
    created: ctx.now,
    ctx,
  };
  const status = podStatus(
    input,
    pod.spec,
    pod.metadata.uid!,
    pod.spec?.nodeName,
  );
  if (pod.status?.startTime && status.startTime)
    status.startTime = pod.status.startTime;
  return { ...pod, status };
}
