import { isRecord, str } from '../k8s/objects';
import { groupOfApiVersion } from '../k8s/resourceId';
import { KubernetesObject, WorkloadRevision } from '../types';
import {
  podTemplateDiff,
  sameTemplate,
  withoutRevisionLabels,
} from './templateDiff';

/**
 * Rollout history as kubectl reads it (k8s.io/kubectl
 * `polymorphichelpers/history.go` and `rollback.go`): a Deployment's
 * revisions are the ReplicaSets it controls, numbered by their
 * `deployment.kubernetes.io/revision` annotation; a StatefulSet's or
 * DaemonSet's are the ControllerRevisions it controls, numbered by
 * `.revision`, whose `data` holds the pod template as a strategic merge
 * patch (`{"spec":{"template":{…,"$patch":"replace"}}}`).
 */

const REVISION = 'deployment.kubernetes.io/revision';
const CHANGE_CAUSE = 'kubernetes.io/change-cause';
const POD_TEMPLATE_HASH = 'pod-template-hash';

/**
 * The annotations kubectl keeps from the Deployment when it rolls back
 * (rollback.go `annotationsToSkip`); every other annotation comes from the
 * ReplicaSet of the revision.
 */
const ANNOTATIONS_TO_SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/** Kinds with a rollout history. */
const HISTORY_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** Whether `kubectl rollout history|undo` applies to the object. @public */
export function hasRolloutHistory(object: KubernetesObject): boolean {
  return (
    groupOfApiVersion(object.apiVersion) === 'apps' &&
    HISTORY_KINDS.has(String(object.kind))
  );
}

/** One revision as kubectl finds it, with its pod template. */
interface FoundRevision {
  revision: number;
  object: KubernetesObject;
  template: Record<string, unknown>;
}

function controlledBy(object: KubernetesObject, owner: KubernetesObject) {
  const refs = object.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return false;
  return refs.some(
    ref =>
      isRecord(ref) &&
      ref.controller === true &&
      ref.kind === owner.kind &&
      (owner.metadata?.uid
        ? ref.uid === owner.metadata.uid
        : ref.name === owner.metadata?.name),
  );
}

function revisionNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A ControllerRevision's pod template: its data's `spec.template` without the `$patch` directive. */
function templateOfControllerRevision(
  revision: KubernetesObject,
): Record<string, unknown> | undefined {
  const data = (revision as { data?: unknown }).data;
  const spec = isRecord(data) && isRecord(data.spec) ? data.spec : undefined;
  if (!spec || !isRecord(spec.template)) return undefined;
  const { $patch: _directive, ...template } = spec.template;
  return template;
}

function findRevisions(
  workload: KubernetesObject,
  objects: readonly KubernetesObject[],
): FoundRevision[] {
  const namespace = workload.metadata?.namespace;
  const found: FoundRevision[] = [];
  for (const object of objects) {
    if (
      object.metadata?.namespace !== namespace ||
      groupOfApiVersion(object.apiVersion) !== 'apps' ||
      !controlledBy(object, workload)
    )
      continue;
    if (workload.kind === 'Deployment' && object.kind === 'ReplicaSet') {
      const revision = revisionNumber(object.metadata?.annotations?.[REVISION]);
      const template = object.spec?.template;
      if (revision !== undefined && isRecord(template))
        found.push({ revision, object, template });
    } else if (
      workload.kind !== 'Deployment' &&
      object.kind === 'ControllerRevision'
    ) {
      const revision = revisionNumber(
        (object as { revision?: unknown }).revision,
      );
      const template = templateOfControllerRevision(object);
      if (revision !== undefined && template)
        found.push({ revision, object, template });
    }
  }
  return found.sort((a, b) => a.revision - b.revision);
}

function imagesOf(template: unknown): Record<string, string> {
  const spec =
    isRecord(template) && isRecord(template.spec) ? template.spec : {};
  const images: Record<string, string> = {};
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const c of containers) {
      if (
        isRecord(c) &&
        typeof c.name === 'string' &&
        typeof c.image === 'string'
      )
        images[c.name] = c.image;
    }
  }
  return images;
}

/** Container name → image of a pod template (init containers included). @public */
export function templateImages(template: unknown): Record<string, string> {
  return imagesOf(template);
}

/**
 * A workload's revisions, oldest first, as `kubectl rollout history` lists
 * them, each with its images, change cause and the pod-template fields that
 * differ from what the workload runs now.
 *
 * @public
 */
export function workloadRevisions(
  workload: KubernetesObject,
  objects: readonly KubernetesObject[],
): WorkloadRevision[] {
  if (!hasRolloutHistory(workload)) return [];
  const current = workload.spec?.template;
  return findRevisions(workload, objects).map(r => ({
    revision: r.revision,
    source: {
      kind: r.object.kind as 'ReplicaSet' | 'ControllerRevision',
      name: String(r.object.metadata?.name),
    },
    createdAt: str(r.object.metadata?.creationTimestamp),
    changeCause: str(r.object.metadata?.annotations?.[CHANGE_CAUSE]),
    images: imagesOf(r.template),
    current: sameTemplate(r.template, current),
    diffFromCurrent: podTemplateDiff(current, r.template),
  }));
}

/**
 * What `kubectl rollout undo` would send, or why it sends nothing:
 * - `patch`: the request (the Deployment's JSON patch of `/spec/template`
 *   and `/metadata/annotations`; the ControllerRevision's `data` as a
 *   strategic merge patch for a StatefulSet or DaemonSet);
 * - `unchanged`: the workload already runs that revision's template
 *   (kubectl: "skipped rollback");
 * - `refused`: what kubectl answers (paused, no history, unknown revision).
 *
 * @public
 */
export type RolloutUndoPlan =
  | {
      outcome: 'patch';
      revision: number;
      contentType:
        | 'application/json-patch+json'
        | 'application/strategic-merge-patch+json';
      body: unknown;
      template: Record<string, unknown>;
    }
  | { outcome: 'unchanged'; revision: number; message: string }
  | {
      outcome: 'refused';
      reason: 'paused' | 'no-history' | 'not-found';
      message: string;
    };

/**
 * kubectl's rollback (rollback.go): `toRevision` 0 is the previous
 * revision (the newest but one); a Deployment that is paused is refused.
 *
 * @public
 */
export function rolloutUndoPlan(
  workload: KubernetesObject,
  objects: readonly KubernetesObject[],
  toRevision = 0,
): RolloutUndoPlan {
  const kind = String(workload.kind);
  const name = String(workload.metadata?.name);
  if (kind === 'Deployment' && workload.spec?.paused === true)
    return {
      outcome: 'refused',
      reason: 'paused',
      message:
        "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again",
    };
  const revisions = findRevisions(workload, objects);
  let chosen: FoundRevision | undefined;
  if (toRevision > 0) {
    chosen = revisions.find(r => r.revision === toRevision);
    if (!chosen)
      return {
        outcome: 'refused',
        reason: 'not-found',
        message: `unable to find specified revision ${toRevision} in history`,
      };
  } else {
    chosen = revisions[revisions.length - 2];
    if (!chosen)
      return {
        outcome: 'refused',
        reason: 'no-history',
        message:
          kind === 'Deployment'
            ? `no rollout history found for deployment "${name}"`
            : 'no last revision to roll back to',
      };
  }
  if (sameTemplate(chosen.template, workload.spec?.template))
    return {
      outcome: 'unchanged',
      revision: chosen.revision,
      message: `skipped rollback (current template already matches revision ${chosen.revision})`,
    };
  if (kind === 'Deployment') {
    const template = withoutHashLabel(chosen.template);
    const annotations: Record<string, string> = {};
    const own = workload.metadata?.annotations ?? {};
    for (const key of ANNOTATIONS_TO_SKIP)
      if (typeof own[key] === 'string') annotations[key] = own[key];
    for (const [key, value] of Object.entries(
      chosen.object.metadata?.annotations ?? {},
    ))
      if (!ANNOTATIONS_TO_SKIP.has(key) && typeof value === 'string')
        annotations[key] = value;
    return {
      outcome: 'patch',
      revision: chosen.revision,
      contentType: 'application/json-patch+json',
      body: [
        { op: 'replace', path: '/spec/template', value: template },
        { op: 'replace', path: '/metadata/annotations', value: annotations },
      ],
      template,
    };
  }
  return {
    outcome: 'patch',
    revision: chosen.revision,
    contentType: 'application/strategic-merge-patch+json',
    body: (chosen.object as { data?: unknown }).data,
    template: withoutRevisionLabels(chosen.template) as Record<string, unknown>,
  };
}

/**
 * The template kubectl patches back: without the `pod-template-hash`
 * label, and as Go marshals a PodTemplateSpec, with `creationTimestamp:
 * null` (a zero metav1.Time cannot be omitted), so the Deployment ends as
 * it does after `kubectl rollout undo`.
 */
function withoutHashLabel(
  template: Record<string, unknown>,
): Record<string, unknown> {
  const metadata = isRecord(template.metadata) ? template.metadata : {};
  const labels = isRecord(metadata.labels) ? { ...metadata.labels } : undefined;
  if (labels) delete labels[POD_TEMPLATE_HASH];
  return {
    ...template,
    metadata: {
      creationTimestamp: null,
      ...metadata,
      ...(labels && { labels }),
    },
  };
}
