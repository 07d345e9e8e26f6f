import { parse } from 'yaml';
import { KubeObject } from '../scenario/types';
import { isoSeconds, stableSuffix, stableUid } from './ids';
import { controllerRef, deepClone, ExpandContext } from './objects';
import { canonicalJson } from './rollout';

/**
 * Rollout history as kube-controller-manager keeps it: ReplicaSet revisions
 * of a Deployment (`pkg/controller/deployment/util/deployment_util.go`) and
 * ControllerRevisions of StatefulSets and DaemonSets
 * (`pkg/controller/history/controller_history.go`,
 * `pkg/controller/statefulset/stateful_set_utils.go`,
 * `pkg/controller/daemon/update.go`). Shared by the expander and the
 * controllers, so a scenario's history and a live rollout look the same.
 */

export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const CHANGE_CAUSE = 'kubernetes.io/change-cause';
/** StatefulSet ControllerRevisions carry the hash here (`history.ControllerRevisionHashLabel`). */
export const CONTROLLER_HASH_LABEL = 'controller.kubernetes.io/hash';
/** Pods of both, and DaemonSet ControllerRevisions, carry it here. */
export const REVISION_HASH_LABEL = 'controller-revision-hash';

/**
 * The steering annotation for a scenario workload's history: a YAML list,
 * oldest first, of the images (by container name) each earlier revision
 * ran, e.g. `'[{api: "registry/app:1.0"}, {api: "registry/app:1.1"}]'`.
 * Containers not named keep the current image.
 */
export const PREVIOUS_IMAGES = 'simulator.gitlab-env/previous-images';

/**
 * Annotations the deployment controller does not copy from a Deployment to
 * its ReplicaSets, and `kubectl rollout undo` keeps from the Deployment
 * (`annotationsToSkip` in deployment_util.go and kubectl's rollback.go).
 */
export const ANNOTATIONS_TO_SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to',
]);

/** `copyDeploymentAnnotationsToReplicaSet`: what a Deployment passes to its ReplicaSets. */
export function copyableAnnotations(
  deployment: KubeObject,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(deployment.metadata.annotations ?? {}).filter(
      ([key]) => !ANNOTATIONS_TO_SKIP.has(key),
    ),
  );
}

/**
 * Keeps the revisions a reused ReplicaSet had in `revision-history`
 * (`SetNewReplicaSetAnnotations`, bounded by the controller's
 * `--deployment-controller-revision-history-limit`… in characters: 2000).
 */
export function appendRevisionHistory(
  history: string | undefined,
  oldRevision: string,
  limitInChars = 2000,
): string | undefined {
  const revisions = history ? history.split(',') : [];
  let total = (history?.length ?? 0) + oldRevision.length + 1;
  let start = 0;
  while (total > limitInChars && start < revisions.length) {
    total -= revisions[start].length + 1;
    start += 1;
  }
  if (total > limitInChars) return history;
  return [...revisions.slice(start), oldRevision].join(',');
}

/** The scenario's `previous-images`, oldest first; a malformed value is a scenario mistake. */
export function previousImages(
  workload: KubeObject,
): Array<Record<string, string>> | undefined {
  const raw = workload.metadata.annotations?.[PREVIOUS_IMAGES];
  if (raw === undefined) return undefined;
  const value = parse(raw);
  const valid =
    Array.isArray(value) &&
    value.every(
      entry =>
        entry &&
        typeof entry === 'object' &&
        !Array.isArray(entry) &&
        Object.values(entry).every(v => typeof v === 'string'),
    );
  if (!valid) {
    throw new Error(
      `${workload.kind} ${workload.metadata.namespace}/${workload.metadata.name}: ${PREVIOUS_IMAGES} must be a list of {container: image} maps, oldest first`,
    );
  }
  return value;
}

/** The pod template with some containers' images replaced (by container name). */
export function withImages(template: any, images: Record<string, string>) {
  const copy = deepClone(template ?? {});
  for (const list of ['initContainers', 'containers']) {
    for (const container of copy.spec?.[list] ?? []) {
      if (images[container.name]) container.image = images[container.name];
    }
  }
  return copy;
}

/** A pod template without the `$patch` directive a ControllerRevision's data carries. */
export function revisionTemplate(revision: KubeObject): any {
  const { $patch: _patch, ...template } = revision.data?.spec?.template ?? {};
  return template;
}

/** The hash part of a ControllerRevision: stable per workload and template. */
export function controllerRevisionHash(
  cluster: string,
  workload: KubeObject,
  template: any,
): string {
  return stableSuffix(
    `${cluster}/${workload.kind}/${workload.metadata.namespace}/${
      workload.metadata.name
    }/${canonicalJson(template ?? {})}`,
    10,
  );
}

/**
 * A ControllerRevision as the StatefulSet or DaemonSet controller writes it:
 * owned by the workload, `data` the strategic-merge patch that restores the
 * template (`{"spec":{"template":{…,"$patch":"replace"}}}`), `revision` its
 * place in the history. StatefulSets label it with
 * `controller.kubernetes.io/hash` and name pods' `controller-revision-hash`
 * after the revision; DaemonSets label it (and pods) with the bare hash and
 * copy their annotations onto it (so `kubectl rollout history ds` shows a
 * change cause).
 */
export function buildControllerRevision(
  workload: KubeObject,
  template: any,
  revision: number,
  created: Date,
  ctx: Pick<ExpandContext, 'cluster'>,
): KubeObject {
  const hash = controllerRevisionHash(ctx.cluster, workload, template);
  const name = `${workload.metadata.name}-${hash}`;
  const daemonSet = workload.kind === 'DaemonSet';
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: workload.metadata.namespace,
      uid: stableUid(
        `${ctx.cluster}/cr/${workload.metadata.namespace}/${name}/${workload.metadata.uid}`,
      ),
      creationTimestamp: isoSeconds(created),
      labels: {
        ...workload.spec?.template?.metadata?.labels,
        ...template?.metadata?.labels,
        [daemonSet ? REVISION_HASH_LABEL : CONTROLLER_HASH_LABEL]: hash,
      },
      ...(daemonSet && workload.metadata.annotations
        ? { annotations: { ...workload.metadata.annotations } }
        : {}),
      ownerReferences: [controllerRef(workload)],
    },
    revision,
    data: { spec: { template: { $patch: 'replace', ...deepClone(template) } } },
  };
}

/** What a workload's pods carry in `controller-revision-hash` for this revision. */
export function podRevisionLabel(revision: KubeObject): string {
  return (
    revision.metadata.labels?.[REVISION_HASH_LABEL] ?? revision.metadata.name
  );
}

/**
 * The revisions a workload keeps: its current one, those its pods still run,
 * and the newest `revisionHistoryLimit` (default 10) of the others
 * (`truncateHistory` in stateful_set_control.go, `cleanupHistory` in
 * daemon/update.go). Returns the ones to delete, oldest first.
 */
export function revisionsBeyondLimit(
  revisions: KubeObject[],
  live: Set<string>,
  limit: number,
): KubeObject[] {
  const history = revisions
    .filter(r => !live.has(r.metadata.name))
    .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
  return history.slice(0, Math.max(0, history.length - limit));
}

/** The next revision number after the ones a workload has (`nextRevision`). */
export function nextRevision(revisions: KubeObject[]): number {
  return Math.max(0, ...revisions.map(r => Number(r.revision ?? 0))) + 1;
}
