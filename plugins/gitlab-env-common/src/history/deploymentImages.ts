import { isRecord } from '../k8s/objects';
import {
  DeploymentImageChange,
  KubernetesObject,
  WorkloadRevision,
} from '../types';
import { hasRolloutHistory, workloadRevisions } from './workloadRevisions';

/** What of a GitLab deployment can be found in the cluster's revisions. @public */
export interface DeployedCommit {
  ref?: string;
  /** The ref is a tag (release tags name images; branches do not). */
  tag?: boolean;
  sha?: string;
  /** When it started and finished (ISO 8601). */
  createdAt?: string;
  finishedAt?: string;
}

/** How long after a deployment finished a new revision still counts as its rollout. */
const ROLLOUT_GRACE_MS = 10 * 60_000;

function imageTag(image: string): string | undefined {
  const name = image.split('@')[0];
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(colon + 1) : undefined;
}

/** An image tag that names the deployment: its commit (7+ hex digits) or its release tag (with or without `v`). */
function namesDeployment(tag: string, deployed: DeployedCommit): boolean {
  const sha = deployed.sha?.toLowerCase();
  const candidates = tag
    .toLowerCase()
    .split(/[-_.+]/)
    .concat(tag.toLowerCase());
  if (
    sha &&
    candidates.some(
      c => c.length >= 7 && /^[0-9a-f]+$/.test(c) && sha.startsWith(c),
    )
  )
    return true;
  if (deployed.tag && deployed.ref) {
    const ref = deployed.ref.toLowerCase();
    const bare = ref.replace(/^v(?=\d)/, '');
    return tag.toLowerCase() === ref || tag.toLowerCase() === bare;
  }
  return false;
}

/**
 * The revision of a workload a deployment rolled out: the one whose images
 * are tagged with the deployment's commit or release tag (what CI pipelines
 * commonly tag with), else the one created while it ran (from its start to
 * ten minutes after it finished, or from when Flux first applied its
 * commit). Undefined when the cluster keeps none.
 *
 * @public
 */
export function revisionOfDeployment(
  revisions: readonly WorkloadRevision[],
  deployed: DeployedCommit,
  appliedAt?: string,
): { revision: WorkloadRevision; by: 'image tag' | 'time' } | undefined {
  const tagged = revisions.filter(r =>
    Object.values(r.images).some(image => {
      const tag = imageTag(image);
      return tag !== undefined && namesDeployment(tag, deployed);
    }),
  );
  if (tagged.length > 0)
    return { revision: tagged[tagged.length - 1], by: 'image tag' };
  const start = Date.parse(appliedAt ?? deployed.createdAt ?? '');
  if (!Number.isFinite(start)) return undefined;
  const finished = Date.parse(deployed.finishedAt ?? '');
  const end =
    (appliedAt || !Number.isFinite(finished) ? start : finished) +
    ROLLOUT_GRACE_MS;
  const made = revisions.filter(r => {
    const created = Date.parse(r.createdAt ?? '');
    return created >= start - 60_000 && created <= end;
  });
  return made.length > 0
    ? { revision: made[made.length - 1], by: 'time' }
    : undefined;
}

/** When Flux first applied a commit (its applier's `status.history`), for GitOps environments. @public */
export function fluxAppliedAt(
  objects: readonly KubernetesObject[],
  sha: string | undefined,
): string | undefined {
  if (!sha) return undefined;
  for (const o of objects) {
    const history = o.status?.history;
    if (!Array.isArray(history)) continue;
    for (const snapshot of history)
      if (
        isRecord(snapshot) &&
        isRecord(snapshot.metadata) &&
        typeof snapshot.metadata.revision === 'string' &&
        snapshot.metadata.revision.includes(sha) &&
        typeof snapshot.firstReconciled === 'string'
      )
        return snapshot.firstReconciled;
  }
  return undefined;
}

/**
 * The images a deployment changed, workload by workload, as the cluster's
 * revisions still show them: the revision it rolled out against the one the
 * previous successful deployment rolled out (else the revision just
 * before). Workloads whose history keeps neither say nothing.
 *
 * @public
 */
export function deploymentImageChanges(
  objects: readonly KubernetesObject[],
  deployed: DeployedCommit,
  previous?: DeployedCommit,
): DeploymentImageChange[] {
  const changes: DeploymentImageChange[] = [];
  const appliedAt = fluxAppliedAt(objects, deployed.sha);
  const previousAppliedAt = fluxAppliedAt(objects, previous?.sha);
  for (const workload of objects.filter(hasRolloutHistory)) {
    const revisions = workloadRevisions(workload, objects);
    const found = revisionOfDeployment(revisions, deployed, appliedAt);
    if (!found) continue;
    const before =
      (previous &&
        revisionOfDeployment(revisions, previous, previousAppliedAt)
          ?.revision) ??
      revisions.filter(r => r.revision < found.revision.revision).slice(-1)[0];
    if (!before || before === found.revision) continue;
    for (const [container, image] of Object.entries(found.revision.images))
      if (before.images[container] !== image)
        changes.push({
          workload: `${workload.kind} ${workload.metadata?.namespace}/${workload.metadata?.name}`,
          container,
          ...(before.images[container] && { from: before.images[container] }),
          to: image,
          source: appliedAt ? 'Flux' : found.revision.source.kind,
          revision: found.revision.revision,
        });
  }
  return changes;
}
