import { KubeObject } from '../scenario/types';
import { isoSeconds, stableSuffix, stableUid } from './ids';
import {
  annotation,
  controllerRef,
  deepClone,
  ExpandContext,
  isControlledBy,
  SIM_ANNOTATIONS,
  simState,
} from './objects';
import { buildPod, isPodReady, PodState } from './pods';
import { withWorkloadDefaults } from './defaults';

/**
 * What the workload controllers (deployment, replicaset, statefulset,
 * daemonset, job, cronjob) create for a manifest, and the statuses they write.
 */

const REVISION = 'deployment.kubernetes.io/revision';

function transition(
  type: string,
  status: string,
  at: string,
  reason: string,
  message: string,
) {
  return {
    type,
    status,
    lastUpdateTime: at,
    lastTransitionTime: at,
    reason,
    message,
  };
}

// ---------------------------------------------------------------- Deployment

export function deploymentRevision(deployment: KubeObject): number {
  return Number(
    annotation(deployment, SIM_ANNOTATIONS.revision) ??
      annotation(deployment, REVISION) ??
      1,
  );
}

/** The pod-template-hash of a revision: stable per template and revision. */
function templateHash(
  deployment: KubeObject,
  revision: number,
  ctx: ExpandContext,
): string {
  return stableSuffix(
    `${ctx.cluster}/${deployment.metadata.namespace}/${
      deployment.metadata.name
    }/${revision}/${JSON.stringify(deployment.spec?.template ?? {})}`,
    10,
  );
}

/** The state of the n-th pod of a Deployment's current or old ReplicaSet. */
export function deploymentPodState(
  deployment: KubeObject,
  current: boolean,
  index: number,
): PodState {
  const state = simState(deployment);
  if (!current) {
    return 'running';
  }
  switch (state) {
    case 'crashloop':
      return 'crashloop';
    case 'image-pull':
      return 'image-pull';
    case 'node-lost':
      return 'node-lost';
    case 'progressing': {
      const replicas = deployment.spec?.replicas ?? 1;
      return index === replicas - 1 ? 'starting' : 'running';
    }
    case 'pending':
      return 'pending';
    default:
      return 'running';
  }
}

/** How many pods the current and old ReplicaSets run for the Deployment's state. */
function deploymentSplit(deployment: KubeObject): {
  current: number;
  old: number;
} {
  const replicas = deployment.spec?.replicas ?? 1;
  switch (simState(deployment)) {
    case 'progressing':
      return { current: replicas, old: 1 };
    case 'image-pull':
      // A stuck rollout: the new ReplicaSet cannot start its first pod, the old one keeps serving.
      return { current: 1, old: replicas };
    default:
      return { current: replicas, old: 0 };
  }
}

export function replicaSetStatus(rs: KubeObject, pods: KubeObject[]) {
  const ready = pods.filter(isPodReady).length;
  return {
    replicas: pods.length,
    fullyLabeledReplicas: pods.length,
    ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
    observedGeneration: rs.metadata.generation ?? 1,
  };
}

/** Deployment status as the deployment controller computes it from its ReplicaSets' pods. */
export function deploymentStatus(
  deployment: KubeObject,
  replicaSets: KubeObject[],
  podsOf: (rs: KubeObject) => KubeObject[],
  at: string,
) {
  const desired = deployment.spec?.replicas ?? 1;
  const currentRevision = String(deploymentRevision(deployment));
  const current = replicaSets.find(
    rs => annotation(rs, REVISION) === currentRevision,
  );
  const all = replicaSets.flatMap(podsOf);
  const updated = current ? podsOf(current).length : 0;
  const available = all.filter(isPodReady).length;
  const state = simState(deployment);
  // maxUnavailable defaults to 25%, rounded down.
  const minAvailable = desired - Math.floor(desired * 0.25);
  const rsName = current?.metadata.name ?? deployment.metadata.name;
  const conditions = [
    available >= minAvailable
      ? transition(
          'Available',
          'True',
          at,
          'MinimumReplicasAvailable',
          'Deployment has minimum availability.',
        )
      : transition(
          'Available',
          'False',
          at,
          'MinimumReplicasUnavailable',
          'Deployment does not have minimum availability.',
        ),
  ];
  if (deployment.spec?.paused) {
    conditions.push(
      transition(
        'Progressing',
        'Unknown',
        at,
        'DeploymentPaused',
        'Deployment is paused',
      ),
    );
  } else if (state === 'crashloop' || state === 'image-pull') {
    conditions.push(
      transition(
        'Progressing',
        'False',
        at,
        'ProgressDeadlineExceeded',
        `ReplicaSet "${rsName}" has timed out progressing.`,
      ),
    );
  } else if (
    state === 'progressing' ||
    updated < desired ||
    available < desired
  ) {
    conditions.push(
      transition(
        'Progressing',
        'True',
        at,
        'ReplicaSetUpdated',
        `ReplicaSet "${rsName}" is progressing.`,
      ),
    );
  } else {
    conditions.push(
      transition(
        'Progressing',
        'True',
        at,
        'NewReplicaSetAvailable',
        `ReplicaSet "${rsName}" has successfully progressed.`,
      ),
    );
  }
  return {
    observedGeneration: deployment.metadata.generation ?? 1,
    replicas: all.length,
    updatedReplicas: updated,
    ...(available
      ? { readyReplicas: available, availableReplicas: available }
      : {}),
    ...(all.length - available > 0
      ? { unavailableReplicas: all.length - available }
      : {}),
    conditions,
  };
}

/** A pod name for a ReplicaSet: `<rs>-<5 chars>`, unique per `nonce`. */
export function replicaSetPodName(rs: KubeObject, nonce: string): string {
  return `${rs.metadata.name}-${stableSuffix(
    `${rs.metadata.uid}/${nonce}`,
    5,
  )}`;
}

export function buildReplicaSetPod(
  rs: KubeObject,
  state: PodState,
  nonce: string,
  created: Date,
  ctx: ExpandContext,
): KubeObject {
  return buildPod({
    name: replicaSetPodName(rs, nonce),
    namespace: rs.metadata.namespace!,
    template: rs.spec.template,
    owner: rs,
    state,
    created,
    ctx,
  });
}

export function expandDeployment(
  input: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const deployment = deepClone(withWorkloadDefaults(input));
  const revision = deploymentRevision(deployment);
  deployment.metadata.annotations = {
    ...deployment.metadata.annotations,
    [REVISION]: String(revision),
  };
  const split = deploymentSplit(deployment);
  const revisions = revision > 1 ? [revision, revision - 1] : [revision];
  const replicaSets: KubeObject[] = [];
  const podsByRs = new Map<string, KubeObject[]>();
  for (const rev of revisions) {
    const current = rev === revision;
    const hash = templateHash(deployment, rev, ctx);
    // An old revision ran an older image: its template differs.
    const template = deepClone(deployment.spec.template ?? {});
    template.metadata = {
      ...template.metadata,
      labels: { ...template.metadata?.labels, 'pod-template-hash': hash },
    };
    if (!current) {
      for (const container of template.spec?.containers ?? []) {
        container.image = String(container.image).replace(
          /:([^:/]+)$/,
          (_m: string, tag: string) => `:${tag}-prev`,
        );
      }
    }
    const rsCreated = current ? created : new Date(created.getTime() - 86400e3);
    const count = current ? split.current : split.old;
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${deployment.metadata.name}-${hash}`,
        namespace: deployment.metadata.namespace,
        uid: stableUid(
          `${ctx.cluster}/rs/${deployment.metadata.namespace}/${deployment.metadata.name}-${hash}`,
        ),
        creationTimestamp: isoSeconds(rsCreated),
        generation: 1,
        labels: { ...template.metadata.labels },
        annotations: {
          'deployment.kubernetes.io/desired-replicas': String(
            deployment.spec.replicas,
          ),
          'deployment.kubernetes.io/max-replicas': String(
            deployment.spec.replicas +
              Math.ceil(deployment.spec.replicas * 0.25),
          ),
          [REVISION]: String(rev),
        },
        ownerReferences: [controllerRef(deployment)],
      },
      spec: {
        replicas: count,
        selector: {
          matchLabels: {
            ...deployment.spec.selector?.matchLabels,
            'pod-template-hash': hash,
          },
        },
        template,
      },
    };
    const pods = Array.from({ length: count }, (_, i) =>
      buildReplicaSetPod(
        rs,
        deploymentPodState(deployment, current, i),
        String(i),
        created,
        ctx,
      ),
    );
    rs.status = replicaSetStatus(rs, pods);
    replicaSets.push(rs);
    podsByRs.set(rs.metadata.uid!, pods);
  }
  if (!deployment.status) {
    deployment.status = deploymentStatus(
      deployment,
      replicaSets,
      rs => podsByRs.get(rs.metadata.uid!) ?? [],
      isoSeconds(created),
    );
  }
  return [
    deployment,
    ...replicaSets,
    ...replicaSets.flatMap(rs => podsByRs.get(rs.metadata.uid!)!),
  ];
}

// --------------------------------------------------------------- StatefulSet

export function statefulSetPodState(sts: KubeObject, index: number): PodState {
  const last = index === (sts.spec?.replicas ?? 1) - 1;
  switch (simState(sts)) {
    case 'crashloop':
      return last ? 'crashloop' : 'running';
    case 'progressing':
      return last ? 'starting' : 'running';
    case 'pending':
      return last ? 'pending' : 'running';
    default:
      return 'running';
  }
}

function claimName(template: any, sts: KubeObject, index: number): string {
  return `${template.metadata.name}-${sts.metadata.name}-${index}`;
}

/** The PersistentVolumeClaim (and its bound PersistentVolume) of one StatefulSet ordinal. */
export function buildClaim(
  template: any,
  sts: KubeObject,
  index: number,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const name = claimName(template, sts, index);
  const uid = stableUid(`${ctx.cluster}/pvc/${sts.metadata.namespace}/${name}`);
  const storage = template.spec?.resources?.requests?.storage ?? '1Gi';
  const volumeName = `pvc-${uid}`;
  const storageClassName = template.spec?.storageClassName ?? 'standard';
  const at = isoSeconds(created);
  const claim: KubeObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: sts.metadata.namespace,
      uid,
      creationTimestamp: at,
      labels: {
        ...template.metadata?.labels,
        ...sts.spec.selector?.matchLabels,
      },
      annotations: {
        'pv.kubernetes.io/bind-completed': 'yes',
        'pv.kubernetes.io/bound-by-controller': 'yes',
        'volume.beta.kubernetes.io/storage-provisioner':
          'rancher.io/local-path',
        'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      },
      finalizers: ['kubernetes.io/pvc-protection'],
    },
    spec: {
      accessModes: template.spec?.accessModes ?? ['ReadWriteOnce'],
      resources: { requests: { storage } },
      storageClassName,
      volumeMode: 'Filesystem',
      volumeName,
    },
    status: {
      phase: 'Bound',
      accessModes: template.spec?.accessModes ?? ['ReadWriteOnce'],
      capacity: { storage },
    },
  };
  const volume: KubeObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: volumeName,
      uid: stableUid(`${ctx.cluster}/pv/${volumeName}`),
      creationTimestamp: at,
      annotations: {
        'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path',
      },
      finalizers: ['kubernetes.io/pv-protection'],
    },
    spec: {
      accessModes: claim.spec.accessModes,
      capacity: { storage },
      claimRef: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        name,
        namespace: sts.metadata.namespace,
        uid,
      },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName,
      volumeMode: 'Filesystem',
      hostPath: {
        path: `/var/lib/local-path-provisioner/${volumeName}_${sts.metadata.namespace}_${name}`,
        type: 'DirectoryOrCreate',
      },
    },
    status: { phase: 'Bound' },
  };
  return [claim, volume];
}

export function buildStatefulSetPod(
  sts: KubeObject,
  revisionName: string,
  index: number,
  created: Date,
  ctx: ExpandContext,
  incarnation?: string,
) {
  const name = `${sts.metadata.name}-${index}`;
  return buildPod({
    name,
    namespace: sts.metadata.namespace!,
    template: sts.spec.template,
    owner: sts,
    extraLabels: {
      'controller-revision-hash': revisionName,
      'statefulset.kubernetes.io/pod-name': name,
      'apps.kubernetes.io/pod-index': String(index),
    },
    extraVolumes: (sts.spec.volumeClaimTemplates ?? []).map((t: any) => ({
      name: t.metadata.name,
      persistentVolumeClaim: { claimName: claimName(t, sts, index) },
    })),
    state: statefulSetPodState(sts, index),
    created,
    ctx,
    incarnation,
  });
}

export function statefulSetStatus(
  sts: KubeObject,
  pods: KubeObject[],
  revisionName: string,
) {
  const ready = pods.filter(isPodReady).length;
  return {
    observedGeneration: sts.metadata.generation ?? 1,
    replicas: pods.length,
    readyReplicas: ready,
    availableReplicas: ready,
    currentReplicas: pods.length,
    updatedReplicas: pods.length,
    currentRevision: revisionName,
    updateRevision: revisionName,
    collisionCount: 0,
  };
}

export function statefulSetRevisionName(
  sts: KubeObject,
  ctx: ExpandContext,
): string {
  return `${sts.metadata.name}-${stableSuffix(
    `${ctx.cluster}/${JSON.stringify(sts.spec?.template ?? {})}`,
    10,
  )}`;
}

export function expandStatefulSet(
  input: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const sts = deepClone(withWorkloadDefaults(input));
  const revisionName = statefulSetRevisionName(sts, ctx);
  const revision: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName,
      namespace: sts.metadata.namespace,
      uid: stableUid(
        `${ctx.cluster}/cr/${sts.metadata.namespace}/${revisionName}`,
      ),
      creationTimestamp: isoSeconds(created),
      labels: {
        ...sts.spec.selector?.matchLabels,
        'controller.kubernetes.io/hash': revisionName.split('-').pop()!,
      },
      ownerReferences: [controllerRef(sts)],
    },
    revision: 1,
    data: {
      spec: {
        template: { $patch: 'replace', ...deepClone(sts.spec.template) },
      },
    },
  };
  const pods: KubeObject[] = [];
  const claims: KubeObject[] = [];
  for (let i = 0; i < sts.spec.replicas; i++) {
    pods.push(buildStatefulSetPod(sts, revisionName, i, created, ctx));
    for (const template of sts.spec.volumeClaimTemplates ?? []) {
      claims.push(...buildClaim(template, sts, i, created, ctx));
    }
  }
  if (!sts.status) {
    sts.status = statefulSetStatus(sts, pods, revisionName);
  }
  return [sts, revision, ...pods, ...claims];
}

// ----------------------------------------------------------------- DaemonSet

export function expandDaemonSet(
  input: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const ds = deepClone(withWorkloadDefaults(input));
  const hash = stableSuffix(
    `${ctx.cluster}/${JSON.stringify(ds.spec?.template ?? {})}`,
    10,
  );
  const pods = ctx.nodes.map((node, i) => {
    const pod = buildPod({
      name: `${ds.metadata.name}-${stableSuffix(
        `${ds.metadata.uid}/${node}`,
        5,
      )}`,
      namespace: ds.metadata.namespace!,
      template: ds.spec.template,
      owner: ds,
      extraLabels: {
        'controller-revision-hash': hash,
        'pod-template-generation': '1',
      },
      state: simState(ds) === 'crashloop' && i === 0 ? 'crashloop' : 'running',
      created,
      ctx,
    });
    pod.spec.nodeName = node;
    return pod;
  });
  const ready = pods.filter(isPodReady).length;
  if (!ds.status) {
    ds.status = {
      currentNumberScheduled: pods.length,
      desiredNumberScheduled: pods.length,
      numberAvailable: ready,
      numberMisscheduled: 0,
      numberReady: ready,
      ...(pods.length - ready
        ? { numberUnavailable: pods.length - ready }
        : {}),
      observedGeneration: ds.metadata.generation ?? 1,
      updatedNumberScheduled: pods.length,
    };
  }
  return [ds, ...pods];
}

// ---------------------------------------------------------------- Job, CronJob

function expandJobObject(
  job: KubeObject,
  created: Date,
  outcome: 'succeeded' | 'failed' | 'running',
  ctx: ExpandContext,
): KubeObject[] {
  const uid = job.metadata.uid!;
  const jobLabels = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': job.metadata.name,
    'controller-uid': uid,
    'job-name': job.metadata.name,
  };
  job.spec = {
    backoffLimit: 6,
    completionMode: 'NonIndexed',
    completions: 1,
    parallelism: 1,
    suspend: false,
    ...job.spec,
    selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
  };
  job.spec.template = deepClone(job.spec.template ?? {});
  job.spec.template.metadata = {
    ...job.spec.template.metadata,
    labels: { ...job.spec.template.metadata?.labels, ...jobLabels },
  };
  job.metadata.labels = { ...job.metadata.labels, ...jobLabels };
  const pod = buildPod({
    name: `${job.metadata.name}-${stableSuffix(`${uid}/0`, 5)}`,
    namespace: job.metadata.namespace!,
    template: {
      ...job.spec.template,
      spec: { restartPolicy: 'Never', ...job.spec.template.spec },
    },
    owner: job,
    state: outcome,
    created,
    ctx,
  });
  const start = isoSeconds(created);
  const end = isoSeconds(new Date(created.getTime() + 47e3));
  if (!job.status) {
    if (outcome === 'succeeded') {
      job.status = {
        startTime: start,
        completionTime: end,
        succeeded: 1,
        ready: 0,
        terminating: 0,
        uncountedTerminatedPods: {},
        conditions: [
          {
            type: 'SuccessCriteriaMet',
            status: 'True',
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
            lastProbeTime: end,
            lastTransitionTime: end,
          },
          {
            type: 'Complete',
            status: 'True',
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
            lastProbeTime: end,
            lastTransitionTime: end,
          },
        ],
      };
    } else if (outcome === 'failed') {
      job.status = {
        startTime: start,
        failed: 1,
        ready: 0,
        terminating: 0,
        uncountedTerminatedPods: {},
        conditions: [
          {
            type: 'FailureTarget',
            status: 'True',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
            lastProbeTime: end,
            lastTransitionTime: end,
          },
          {
            type: 'Failed',
            status: 'True',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
            lastProbeTime: end,
            lastTransitionTime: end,
          },
        ],
      };
    } else {
      job.status = {
        startTime: start,
        active: 1,
        ready: 1,
        terminating: 0,
        uncountedTerminatedPods: {},
      };
    }
  }
  return [job, pod];
}

function jobOutcome(state: string): 'succeeded' | 'failed' | 'running' {
  if (state === 'failed') return 'failed';
  if (state === 'running') return 'running';
  return 'succeeded';
}

export function expandJob(
  input: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  return expandJobObject(
    deepClone(input),
    created,
    jobOutcome(simState(input)),
    ctx,
  );
}

export function expandCronJob(
  input: KubeObject,
  _created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const cronJob = deepClone(input);
  cronJob.spec = {
    concurrencyPolicy: 'Allow',
    failedJobsHistoryLimit: 1,
    successfulJobsHistoryLimit: 3,
    suspend: false,
    ...cronJob.spec,
  };
  const history = Number(annotation(cronJob, SIM_ANNOTATIONS.history) ?? 2);
  const state = simState(cronJob);
  const objects: KubeObject[] = [];
  let lastSchedule: Date | undefined;
  let lastSuccess: Date | undefined;
  for (let i = history; i >= 1; i--) {
    // Scheduled on the hour, i hours ago; Job names carry the scheduled time in minutes.
    const scheduled = new Date(
      Math.floor(ctx.now.getTime() / 3600e3) * 3600e3 -
        (i - 1) * 3600e3 -
        (cronJob.spec.suspend ? 86400e3 : 0),
    );
    const name = `${cronJob.metadata.name}-${Math.floor(
      scheduled.getTime() / 60e3,
    )}`;
    const outcome = i === 1 && state === 'failing' ? 'failed' : 'succeeded';
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: cronJob.metadata.namespace,
        uid: stableUid(
          `${ctx.cluster}/job/${cronJob.metadata.namespace}/${name}`,
        ),
        creationTimestamp: isoSeconds(scheduled),
        generation: 1,
        labels: { ...cronJob.spec.jobTemplate?.metadata?.labels },
        annotations: {
          'batch.kubernetes.io/cronjob-scheduled-timestamp': scheduled
            .toISOString()
            .replace('.000Z', 'Z'),
        },
        ownerReferences: [controllerRef(cronJob)],
      },
      spec: deepClone(cronJob.spec.jobTemplate?.spec ?? {}),
    };
    objects.push(...expandJobObject(job, scheduled, outcome, ctx));
    lastSchedule = scheduled;
    if (outcome === 'succeeded')
      lastSuccess = new Date(scheduled.getTime() + 47e3);
  }
  if (!cronJob.status) {
    cronJob.status = {
      ...(lastSchedule ? { lastScheduleTime: isoSeconds(lastSchedule) } : {}),
      ...(lastSuccess ? { lastSuccessfulTime: isoSeconds(lastSuccess) } : {}),
    };
  }
  return [cronJob, ...objects];
}

/** The pods a controller owns, from a flat object list. */
export function podsControlledBy(
  owner: KubeObject,
  objects: KubeObject[],
): KubeObject[] {
  return objects.filter(o => o.kind === 'Pod' && isControlledBy(o, owner));
}
