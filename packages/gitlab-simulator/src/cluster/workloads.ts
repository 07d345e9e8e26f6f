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
import {
  buildControllerRevision,
  CHANGE_CAUSE,
  copyableAnnotations,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  podRevisionLabel,
  previousImages,
  REVISION,
  REVISION_HASH_LABEL,
  withImages,
} from './revisions';

/**
 * What the workload controllers (deployment, replicaset, statefulset,
 * daemonset, job, cronjob) create for a manifest, and the statuses they write.
 */

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

/**
 * The templates of a Deployment's earlier revisions, oldest first, that its
 * ReplicaSets still hold: the scenario's `previous-images` (one revision
 * each), or else one revision with an older image tag (`<tag>-prev`) when
 * the revision is above 1. At most `revisionHistoryLimit` are kept
 * (`cleanupDeployment` in pkg/controller/deployment/sync.go).
 */
function olderRevisions(
  deployment: KubeObject,
  revision: number,
): Array<{ revision: number; template: any }> {
  const previous = previousImages(deployment);
  let older: Array<{ revision: number; template: any }>;
  if (previous) {
    if (revision - previous.length < 1) {
      throw new Error(
        `Deployment ${deployment.metadata.namespace}/${deployment.metadata.name}: revision ${revision} leaves no room for ${previous.length} earlier revisions`,
      );
    }
    older = previous.map((images, i) => ({
      revision: revision - previous.length + i,
      template: withImages(deployment.spec.template, images),
    }));
  } else if (revision > 1) {
    const template = deepClone(deployment.spec.template ?? {});
    for (const container of template.spec?.containers ?? []) {
      container.image = String(container.image).replace(
        /:([^:/]+)$/,
        (_m: string, tag: string) => `:${tag}-prev`,
      );
    }
    older = [{ revision: revision - 1, template }];
  } else {
    older = [];
  }
  return older.slice(
    Math.max(0, older.length - (deployment.spec.revisionHistoryLimit ?? 10)),
  );
}

export function expandDeployment(
  input: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const deployment = deepClone(withWorkloadDefaults(input));
  const declared =
    annotation(deployment, SIM_ANNOTATIONS.revision) ??
    annotation(deployment, REVISION);
  // Without a declared revision, the earlier revisions come first.
  const revision = declared
    ? Number(declared)
    : (previousImages(deployment)?.length ?? 0) + 1;
  deployment.metadata.annotations = {
    ...deployment.metadata.annotations,
    [REVISION]: String(revision),
  };
  const split = deploymentSplit(deployment);
  const older = olderRevisions(deployment, revision);
  const revisions = [
    { revision, template: deployment.spec.template ?? {} },
    ...[...older].reverse(),
  ];
  // The controller copies the Deployment's annotations onto its ReplicaSets;
  // an earlier revision keeps neither the current change cause nor the
  // simulator's state steering, which describes the current revision.
  const copied = copyableAnnotations(deployment);
  const {
    [CHANGE_CAUSE]: _cause,
    [SIM_ANNOTATIONS.state]: _state,
    ...earlier
  } = copied;
  const replicaSets: KubeObject[] = [];
  const podsByRs = new Map<string, KubeObject[]>();
  revisions.forEach(({ revision: rev, template: podTemplate }, position) => {
    const current = rev === revision;
    const hash = templateHash(deployment, rev, ctx);
    const template = deepClone(podTemplate);
    template.metadata = {
      ...template.metadata,
      labels: { ...template.metadata?.labels, 'pod-template-hash': hash },
    };
    // Each earlier revision was current a day before the next one.
    const rsCreated = new Date(created.getTime() - position * 86400e3);
    let count = 0;
    if (current) count = split.current;
    else if (position === 1) count = split.old;
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
          ...(current ? copied : earlier),
          [DESIRED_REPLICAS]: String(deployment.spec.replicas),
          [MAX_REPLICAS]: String(
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
  });
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

/**
 * A StatefulSet's or DaemonSet's ControllerRevisions, oldest first: one per
 * scenario `previous-images` entry, then the current template's
 * (history truncated to `revisionHistoryLimit`, like the controllers do).
 */
export function workloadRevisions(
  workload: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const previous = previousImages(workload) ?? [];
  const kept = previous.slice(
    Math.max(0, previous.length - (workload.spec.revisionHistoryLimit ?? 10)),
  );
  const templates = [
    ...kept.map(images => withImages(workload.spec.template, images)),
    workload.spec.template,
  ];
  const first = previous.length - kept.length + 1;
  return templates.map((template, i) =>
    buildControllerRevision(
      workload,
      template,
      first + i,
      new Date(created.getTime() - (templates.length - 1 - i) * 86400e3),
      ctx,
    ),
  );
}

export function expandStatefulSet(
  input: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const sts = deepClone(withWorkloadDefaults(input));
  const revisions = workloadRevisions(sts, created, ctx);
  const revisionName = podRevisionLabel(revisions[revisions.length - 1]);
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
  return [sts, ...revisions, ...pods, ...claims];
}

// ----------------------------------------------------------------- DaemonSet

export function expandDaemonSet(
  input: KubeObject,
  created: Date,
  ctx: ExpandContext,
): KubeObject[] {
  const ds = deepClone(withWorkloadDefaults(input));
  const revisions = workloadRevisions(ds, created, ctx);
  const hash = podRevisionLabel(revisions[revisions.length - 1]);
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
        [REVISION_HASH_LABEL]: hash,
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
  return [ds, ...revisions, ...pods];
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
