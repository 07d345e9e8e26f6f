import { HealthStatus, ResourceNode } from '../types';

/** Kinds whose health explains their children's: named first when several share a depth. */
const EXPLAINING_KINDS = [
  'Kustomization',
  'HelmRelease',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Rollout',
  'CronJob',
  'Job',
];

/** What a health transition is blamed on. @public */
export interface HealthCause {
  node: Pick<
    ResourceNode,
    | 'id'
    | 'group'
    | 'version'
    | 'kind'
    | 'namespace'
    | 'name'
    | 'resourceVersion'
  >;
  /** e.g. `Deployment checkout-api: Deployment exceeded its progress deadline`. */
  text: string;
}

function rank(kind: string): number {
  const at = EXPLAINING_KINDS.indexOf(kind);
  return at === -1 ? EXPLAINING_KINDS.length : at;
}

function depthThroughCycle(
  node: ResourceNode,
  parentOf: ReadonlyMap<string, string | undefined>,
): number {
  let d = 0;
  const seen = new Set<string>();
  for (let at = node.parentId; at && !seen.has(at); d++) {
    seen.add(at);
    at = parentOf.get(at);
  }
  return d;
}

/**
 * How many tree parents above a node, each counted once (a cycle ends the
 * walk). The nodes' parents are indexed when a first depth is asked.
 */
function depthsIn(
  nodes: readonly ResourceNode[],
): (node: ResourceNode) => number {
  let parentOf: Map<string, string | undefined> | undefined;
  return node => {
    if (!parentOf) {
      parentOf = new Map();
      for (const n of nodes) parentOf.set(n.id, n.parentId);
    }
    // A walk longer than there are nodes met a cycle: only then is it
    // walked again, remembering each parent it passed.
    const limit = parentOf.size + 1;
    let d = 0;
    for (let at = node.parentId; at; d++) {
      if (d > limit) return depthThroughCycle(node, parentOf);
      at = parentOf.get(at);
    }
    return d;
  };
}

/**
 * The first of the nodes with the status in the cause's order (depth,
 * explaining kind, id), found in one pass; without `depth`, the first of
 * those without a tree parent.
 */
function firstOf(
  nodes: readonly ResourceNode[],
  status: HealthStatus,
  depth?: (node: ResourceNode) => number,
): ResourceNode | undefined {
  let chosen: ResourceNode | undefined;
  let chosenDepth = 0;
  let chosenRank = 0;
  for (const n of nodes) {
    if (n.missing || n.health?.status !== status) continue;
    if (!depth && n.parentId) continue;
    const d = depth ? depth(n) : 0;
    const r = rank(n.kind);
    if (
      !chosen ||
      (d - chosenDepth ||
        r - chosenRank ||
        n.id.localeCompare(chosen.id, 'en')) < 0
    ) {
      chosen = n;
      chosenDepth = d;
      chosenRank = r;
    }
  }
  return chosen;
}

/**
 * The object an environment's health is blamed on: of the objects whose own
 * health is the environment's, the one nearest a root of the graph (a
 * Deployment rather than its crash-looping pod, which shows under it), then
 * the kinds that explain others first, then by id, so every replica of the
 * backend names the same one. Undefined when no object has that status
 * (an environment Unknown for want of data).
 *
 * @public
 */
export function healthCauseOf(
  nodes: readonly ResourceNode[],
  status: HealthStatus,
): HealthCause | undefined {
  // Asked on each environment's first state, where the cause is nearly
  // always a root (a Deployment, a Service): a node without a tree parent
  // is nearest a root, so while one has the status, no node's depth is
  // walked and no index of the nodes is built.
  const chosen =
    firstOf(nodes, status) ?? firstOf(nodes, status, depthsIn(nodes));
  if (!chosen) return undefined;
  const message = chosen.health?.message?.trim();
  return {
    node: {
      id: chosen.id,
      group: chosen.group,
      version: chosen.version,
      resourceVersion: chosen.resourceVersion,
      kind: chosen.kind,
      namespace: chosen.namespace,
      name: chosen.name,
    },
    text: `${chosen.kind} ${chosen.name}${message ? `: ${message}` : ''}`,
  };
}
