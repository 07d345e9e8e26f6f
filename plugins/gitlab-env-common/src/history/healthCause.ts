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
  const byId = new Map(nodes.map(n => [n.id, n]));
  const depth = (node: ResourceNode) => {
    let d = 0;
    const seen = new Set<string>();
    for (let at = node.parentId; at && !seen.has(at); d++) {
      seen.add(at);
      at = byId.get(at)?.parentId;
    }
    return d;
  };
  const rank = (kind: string) => {
    const at = EXPLAINING_KINDS.indexOf(kind);
    return at === -1 ? EXPLAINING_KINDS.length : at;
  };
  // The first of the sorted order, found in one pass (no sort, no list).
  let chosen: ResourceNode | undefined;
  let chosenDepth = 0;
  let chosenRank = 0;
  for (const n of nodes) {
    if (n.missing || n.health?.status !== status) continue;
    const d = depth(n);
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
