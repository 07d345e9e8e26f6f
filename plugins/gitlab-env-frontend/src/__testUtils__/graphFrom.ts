import {
  HealthAssessment,
  KubernetesObject,
  OWNERSHIP_EDGE_TYPES,
  ResourceEdge,
  ResourceEdgeType,
  ResourceGraph,
  ResourceNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** Fixture id of an object: group/kind/namespace/name. */
export function fixtureId(object: KubernetesObject): string {
  const group = object.apiVersion?.includes('/')
    ? object.apiVersion.split('/')[0]
    : '';
  return [
    group,
    object.kind,
    object.metadata?.namespace ?? '',
    object.metadata?.name,
  ].join('/');
}

/**
 * A `ResourceGraph` shaped like the engine's, for tests and benchmarks:
 * nodes in input order, tree parents from the first ownership edge in,
 * children in edge order.
 */
export function graphFrom(
  objects: KubernetesObject[],
  links: Array<[KubernetesObject, ResourceEdgeType, KubernetesObject]>,
  health: (object: KubernetesObject) => HealthAssessment | undefined,
): ResourceGraph {
  const nodes: ResourceNode[] = objects.map(object => {
    const [group, kind, namespace, name] = fixtureId(object).split('/');
    return {
      id: fixtureId(object),
      group,
      kind,
      namespace,
      name,
      version: object.apiVersion?.split('/').pop() ?? 'v1',
      uid: object.metadata?.uid,
      health: health(object),
      childIds: [],
    };
  });
  const byId = new Map(nodes.map(node => [node.id, node]));
  const edges: ResourceEdge[] = links.map(([source, type, target]) => ({
    source: fixtureId(source),
    type,
    target: fixtureId(target),
  }));
  for (const edge of edges) {
    const child = byId.get(edge.target)!;
    if (OWNERSHIP_EDGE_TYPES.includes(edge.type) && !child.parentId) {
      child.parentId = edge.source;
      byId.get(edge.source)!.childIds.push(child.id);
    }
  }
  return {
    nodes,
    edges,
    roots: nodes.filter(node => !node.parentId).map(node => node.id),
  };
}
