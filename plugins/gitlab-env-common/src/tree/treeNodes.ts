import type { GitOpsView } from '../gitops';
import { statusWords } from '../k8s/statusWords';
import { GitlabEnvironment, KubernetesObject, ResourceNode } from '../types';
import type { TreeFluxState, TreeNode } from './types';

/** What a node shows of its object, besides what the engine's node holds. */
export interface ObjectFacts {
  status: string[];
  createdAt?: string;
  suspended?: boolean;
}

/** The facts of an object (undefined: one the cluster lacks). */
export function objectFacts(object: KubernetesObject | undefined): ObjectFacts {
  const created = object?.metadata?.creationTimestamp;
  const at = typeof created === 'string' ? Date.parse(created) : NaN;
  return {
    status: statusWords(object),
    // Whole seconds, as Kubernetes writes them and the wire carries them.
    ...(Number.isFinite(at) && {
      createdAt: new Date(Math.floor(at / 1000) * 1000).toISOString(),
    }),
    ...(object?.spec?.suspend === true && { suspended: true }),
  };
}

/** What the GitOps view says of nodes, by node id. */
export interface GitOpsMarks {
  drifted: ReadonlySet<string>;
  unmanaged: ReadonlySet<string>;
  fromResourceSet: ReadonlySet<string>;
  flux: ReadonlyMap<string, TreeFluxState>;
}

export const NO_GITOPS_MARKS: GitOpsMarks = {
  drifted: new Set(),
  unmanaged: new Set(),
  fromResourceSet: new Set(),
  flux: new Map(),
};

export function gitOpsMarks(view: GitOpsView): GitOpsMarks {
  return {
    drifted: new Set(Object.keys(view.drift)),
    unmanaged: new Set(view.unmanagedIds),
    fromResourceSet: new Set(view.resourceSetManagedIds),
    flux: new Map(
      view.fluxObjects.map(f => [
        f.nodeId,
        {
          sync: f.sync.status,
          ...(f.sync.message && { message: f.sync.message }),
          ...(f.source?.differs && { sourceDiffers: true }),
          ...(f.sync.lastAppliedRevision && {
            appliedRevision: f.sync.lastAppliedRevision,
          }),
        },
      ]),
    ),
  };
}

/** Whether two sets of marks say the same of a node. */
export function sameMarksOf(a: GitOpsMarks, b: GitOpsMarks, id: string) {
  const fa = a.flux.get(id);
  const fb = b.flux.get(id);
  return (
    a.drifted.has(id) === b.drifted.has(id) &&
    a.unmanaged.has(id) === b.unmanaged.has(id) &&
    a.fromResourceSet.has(id) === b.fromResourceSet.has(id) &&
    fa?.sync === fb?.sync &&
    fa?.message === fb?.message &&
    fa?.sourceDiffers === fb?.sourceDiffers &&
    fa?.appliedRevision === fb?.appliedRevision
  );
}

/** Ids any of two sets of marks names. */
export function markedIds(a: GitOpsMarks, b: GitOpsMarks): Set<string> {
  const ids = new Set<string>();
  for (const marks of [a, b]) {
    marks.drifted.forEach(id => ids.add(id));
    marks.unmanaged.forEach(id => ids.add(id));
    marks.fromResourceSet.forEach(id => ids.add(id));
    marks.flux.forEach((_, id) => ids.add(id));
  }
  return ids;
}

/**
 * A node as the page draws it: the engine's node without its
 * resourceVersion, with the object's facts and the GitOps marks. Absent
 * fields are left out.
 */
export function treeNodeOf(
  node: ResourceNode,
  facts: ObjectFacts,
  marks: GitOpsMarks,
): TreeNode {
  const { resourceVersion: _, ...rest } = node;
  const out: TreeNode = { ...rest, status: facts.status };
  for (const key of Object.keys(out) as Array<keyof TreeNode>)
    if (out[key] === undefined) delete out[key];
  if (facts.createdAt) out.createdAt = facts.createdAt;
  if (facts.suspended) out.suspended = true;
  if (marks.drifted.has(node.id)) out.drifted = true;
  if (marks.unmanaged.has(node.id)) out.unmanaged = true;
  if (marks.fromResourceSet.has(node.id)) out.fromResourceSet = true;
  const flux = marks.flux.get(node.id);
  if (flux) out.flux = flux;
  return out;
}

/** The environment with the engine's count of drifted objects (none: no count). */
export function withDriftedCount(
  environment: GitlabEnvironment,
  driftedCount: number,
): GitlabEnvironment {
  const { driftedCount: _, ...rest } = environment;
  return driftedCount > 0 ? { ...rest, driftedCount } : rest;
}
