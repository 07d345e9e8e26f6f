import {
  ActionTarget,
  EnvironmentAction,
  ResourceNode,
  TreeGraph,
  TreeNode,
  actionsForKind,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** The object a node shows, as the actions and allowed routes name it; none for cluster-scoped or missing ones. */
export function actionTargetOf(node: ResourceNode): ActionTarget | undefined {
  if (!node.namespace || node.missing) return undefined;
  return {
    apiVersion: node.group ? `${node.group}/${node.version}` : node.version,
    kind: node.kind,
    namespace: node.namespace,
    name: node.name,
  };
}

/**
 * The actions a menu offers for an object, in the engine's order: of
 * suspend and resume, only the one that changes `spec.suspend` (the tree
 * node says whether it is set).
 */
export function offeredActions(
  target: ActionTarget,
  node: TreeNode,
): EnvironmentAction[] {
  const suspended = node.suspended === true;
  return actionsForKind(target.apiVersion, target.kind).filter(action => {
    if (action === 'flux.suspend') return !suspended;
    if (action === 'flux.resume') return suspended;
    return true;
  });
}

/** The HorizontalPodAutoscaler the graph shows scaling a node, if any. */
export function autoscalerOf(
  node: ResourceNode,
  graph: TreeGraph,
): TreeNode | undefined {
  const edge = graph.edges.find(
    e => e.type === 'scales' && e.target === node.id,
  );
  return edge ? graph.nodes.find(n => n.id === edge.source) : undefined;
}

/** The Pods under a node in the ownership forest (a workload's, through its ReplicaSets). */
export function podsUnder<N extends ResourceNode>(
  node: N,
  graph: { nodes: readonly N[] },
): N[] {
  if (node.kind === 'Pod') return [node];
  const byId = new Map(graph.nodes.map(n => [n.id, n]));
  const pods: N[] = [];
  const seen = new Set<string>();
  const walk = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const current = byId.get(id);
    if (!current) return;
    if (current.kind === 'Pod' && !current.group) pods.push(current);
    else current.childIds.forEach(walk);
  };
  node.childIds.forEach(walk);
  return pods;
}
