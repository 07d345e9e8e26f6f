import { KubeObject } from '../scenario/types';
import { isoSeconds, stableHex, stableUid } from './ids';
import { ExpandContext } from './objects';
import { CRASHLOOP_RESTART_COUNT } from './pods';
import { helmDriftEvents } from './helmDrift';

/** core/v1 Events like the controllers and kubelet record them. */

export interface EventInput {
  involved: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  component: string;
  count?: number;
  first: Date;
  last?: Date;
  fieldPath?: string;
}

export function buildEvent(input: EventInput, ctx: ExpandContext): KubeObject {
  const { involved } = input;
  const name = `${involved.metadata.name}.${stableHex(
    `${involved.metadata.uid}/${input.reason}/${input.message}`,
  )}`;
  const namespace = involved.metadata.namespace ?? 'default';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name,
      namespace,
      uid: stableUid(`${ctx.cluster}/event/${namespace}/${name}`),
      creationTimestamp: isoSeconds(input.first),
    },
    involvedObject: {
      apiVersion: involved.apiVersion,
      kind: involved.kind,
      name: involved.metadata.name,
      namespace: involved.metadata.namespace,
      uid: involved.metadata.uid,
      ...(input.fieldPath ? { fieldPath: input.fieldPath } : {}),
    },
    reason: input.reason,
    message: input.message,
    source: {
      component: input.component,
      ...(input.component === 'kubelet' && involved.spec?.nodeName
        ? { host: involved.spec.nodeName }
        : {}),
    },
    firstTimestamp: isoSeconds(input.first),
    lastTimestamp: isoSeconds(input.last ?? input.first),
    count: input.count ?? 1,
    type: input.type,
    eventTime: null,
    reportingComponent: input.component,
    reportingInstance:
      input.component === 'kubelet' ? involved.spec?.nodeName ?? '' : '',
  };
}

/** The events a freshly expanded object explains itself with. */
export function eventsFor(
  object: KubeObject,
  all: KubeObject[],
  ctx: ExpandContext,
): KubeObject[] {
  const created = new Date(object.metadata.creationTimestamp ?? ctx.now);
  const events: KubeObject[] = [];
  const add = (e: Omit<EventInput, 'involved' | 'first'> & { first?: Date }) =>
    events.push(buildEvent({ involved: object, first: created, ...e }, ctx));
  switch (object.kind) {
    case 'Deployment':
      for (const rs of all.filter(
        o =>
          o.kind === 'ReplicaSet' &&
          o.metadata.ownerReferences?.[0]?.uid === object.metadata.uid,
      )) {
        const replicas = rs.spec.replicas;
        add({
          type: 'Normal',
          reason: 'ScalingReplicaSet',
          message:
            replicas > 0
              ? `Scaled up replica set ${rs.metadata.name} from 0 to ${replicas}`
              : `Scaled down replica set ${rs.metadata.name} from 1 to 0`,
          component: 'deployment-controller',
        });
      }
      break;
    case 'Pod': {
      const waiting = (object.status?.containerStatuses ?? []).find(
        (c: any) => c.state?.waiting,
      );
      const container = waiting?.name ?? object.spec?.containers?.[0]?.name;
      const fieldPath = `spec.containers{${container}}`;
      if (waiting?.state.waiting.reason === 'CrashLoopBackOff') {
        add({
          type: 'Normal',
          reason: 'Pulled',
          message: `Container image "${waiting.image}" already present on machine`,
          component: 'kubelet',
          count: CRASHLOOP_RESTART_COUNT,
          last: ctx.now,
          fieldPath,
        });
        add({
          type: 'Warning',
          reason: 'BackOff',
          message: `Back-off restarting failed container ${container} in pod ${object.metadata.name}_${object.metadata.namespace}(${object.metadata.uid})`,
          component: 'kubelet',
          count: 4 * CRASHLOOP_RESTART_COUNT,
          last: ctx.now,
          fieldPath,
        });
      } else if (waiting?.state.waiting.reason === 'ImagePullBackOff') {
        add({
          type: 'Warning',
          reason: 'Failed',
          message: `Failed to pull image "${waiting.image}": rpc error: code = NotFound desc = failed to pull and unpack image "${waiting.image}": not found`,
          component: 'kubelet',
          count: 12,
          last: ctx.now,
          fieldPath,
        });
        add({
          type: 'Normal',
          reason: 'BackOff',
          message: `Back-off pulling image "${waiting.image}"`,
          component: 'kubelet',
          count: 40,
          last: ctx.now,
          fieldPath,
        });
      } else if (object.status?.phase === 'Pending' && !object.spec?.nodeName) {
        add({
          type: 'Warning',
          reason: 'FailedScheduling',
          message:
            object.status.conditions?.[0]?.message ?? 'pod is unschedulable',
          component: 'default-scheduler',
          count: 9,
          last: ctx.now,
        });
      } else if (object.status?.phase === 'Unknown') {
        add({
          type: 'Warning',
          reason: 'NodeNotReady',
          message: 'Node is not ready',
          component: 'node-controller',
        });
      }
      break;
    }
    case 'CronJob':
      for (const job of all.filter(
        o =>
          o.kind === 'Job' &&
          o.metadata.ownerReferences?.[0]?.uid === object.metadata.uid,
      )) {
        add({
          type: 'Normal',
          reason: 'SuccessfulCreate',
          message: `Created job ${job.metadata.name}`,
          component: 'cronjob-controller',
          first: new Date(job.metadata.creationTimestamp!),
        });
      }
      break;
    case 'Job':
      if (object.status?.failed) {
        add({
          type: 'Warning',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
          component: 'job-controller',
        });
      } else if (object.status?.succeeded) {
        add({
          type: 'Normal',
          reason: 'Completed',
          message: 'Job completed',
          component: 'job-controller',
        });
      }
      break;
    case 'Certificate': {
      const ready = (object.status?.conditions ?? []).find(
        (c: any) => c.type === 'Ready',
      );
      if (ready?.status === 'False') {
        add({
          type: 'Warning',
          reason: ready.reason ?? 'Failed',
          message: ready.message ?? 'The certificate request has failed',
          component: 'cert-manager-certificates-issuing',
        });
      }
      break;
    }
    case 'HelmRelease':
      for (const drift of helmDriftEvents(object))
        add({
          type: drift.type,
          reason: drift.reason,
          message: drift.message,
          component: 'helm-controller',
          last: new Date(ctx.now.getTime() - drift.ago * 1000),
        });
      break;
    default:
  }
  return events;
}
