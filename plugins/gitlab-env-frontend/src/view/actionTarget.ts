import {
  ActionTarget,
  EnvironmentAction,
  KubernetesObject,
  ResourceGraph,
  ResourceNode,
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
 * suspend and resume, only the one that changes `spec.suspend`.
 */
export function offeredActions(
  target: ActionTarget,
  object: KubernetesObject | undefined,
): EnvironmentAction[] {
  const suspended = object?.spec?.suspend === true;
  return actionsForKind(target.apiVersion, target.kind).filter(action => {
    if (action === 'flux.suspend') return !suspended;
    if (action === 'flux.resume') return suspended;
    return true;
  });
}

/** The HorizontalPodAutoscaler the graph shows scaling a node, if any. */
export function autoscalerOf(
  node: ResourceNode,
  graph: ResourceGraph,
  objects: ReadonlyMap<string, KubernetesObject>,
): { name: string; minReplicas?: number; maxReplicas?: number } | undefined {
  const edge = graph.edges.find(
    e => e.type === 'scales' && e.target === node.id,
  );
  if (!edge) return undefined;
  const hpa = graph.nodes.find(n => n.id === edge.source);
  if (!hpa) return undefined;
  const spec = objects.get(hpa.id)?.spec;
  return {
    name: hpa.name,
    minReplicas:
      typeof spec?.minReplicas === 'number' ? spec.minReplicas : undefined,
    maxReplicas:
      typeof spec?.maxReplicas === 'number' ? spec.maxReplicas : undefined,
  };
}

/** The Pods under a node in the ownership forest (a workload's, through its ReplicaSets). */
export function podsUnder(
  node: ResourceNode,
  graph: ResourceGraph,
): ResourceNode[] {
  if (node.kind === 'Pod') return [node];
  const byId = new Map(graph.nodes.map(n => [n.id, n]));
  const pods: ResourceNode[] = [];
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
