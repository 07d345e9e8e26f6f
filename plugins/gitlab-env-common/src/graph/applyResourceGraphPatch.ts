import {
  HealthSummary,
  KubernetesObject,
  ResourceEdge,
  ResourceGraph,
  ResourceGraphPatch,
  ResourceNode,
} from '../types';
import { resourceId, resourceKeyOf } from '../k8s/resourceId';
import { compareIds, forestOrder } from './forestOrder';

/**
 * What a page holds of an environment and a patch updates: the objects,
 * the graph and the health the engine computed.
 *
 * @public
 */
export interface PatchableResources {
  resources: KubernetesObject[];
  graph: ResourceGraph;
  health: HealthSummary;
}

const edgeKey = (edge: ResourceEdge) =>
  `${edge.source}\n${edge.type}\n${edge.target}`;

/**
 * Applies a `ResourceGraphPatch` of `LiveResourceGraph` to the resources,
 * graph and health a page holds, and returns them updated; the input is
 * not changed. Nodes and objects the patch does not name are kept as the
 * same objects (so a view can tell what changed), the graph keeps the
 * engine's order (parents first, children and roots by id) and objects
 * keep their places, new ones last. Health is taken from the patch, never
 * derived here.
 *
 * @public
 */
export function applyResourceGraphPatch<T extends PatchableResources>(
  held: T,
  patch: ResourceGraphPatch,
): T {
  return {
    ...held,
    resources: patchObjects(held.resources, patch),
    graph: patchGraph(held.graph, patch),
    health: patch.health ?? held.health,
  };
}

function patchObjects(
  objects: readonly KubernetesObject[],
  patch: ResourceGraphPatch,
): KubernetesObject[] {
  if (patch.objectsUpserted.length === 0 && patch.objectsRemoved.length === 0)
    return objects as KubernetesObject[];
  const removed = new Set(patch.objectsRemoved);
  const upserted = new Map<string, KubernetesObject>();
  for (const object of patch.objectsUpserted) {
    const key = resourceKeyOf(object);
    if (key) upserted.set(resourceId(key), object);
  }
  const result: KubernetesObject[] = [];
  for (const object of objects) {
    const key = resourceKeyOf(object);
    const id = key ? resourceId(key) : undefined;
    if (id !== undefined && removed.has(id)) continue;
    if (id !== undefined && upserted.has(id)) {
      result.push(upserted.get(id)!);
      upserted.delete(id);
    } else result.push(object);
  }
  result.push(...upserted.values());
  return result;
}

function patchGraph(
  graph: ResourceGraph,
  patch: ResourceGraphPatch,
): ResourceGraph {
  const nodes = new Map<string, ResourceNode>(
    graph.nodes.map(node => [node.id, node]),
  );
  for (const id of patch.nodesRemoved) nodes.delete(id);
  for (const node of [...patch.nodesAdded, ...patch.nodesChanged])
    nodes.set(node.id, node);

  const edges = new Map<string, ResourceEdge>(
    graph.edges.map(edge => [edgeKey(edge), edge]),
  );
  for (const edge of patch.edgesRemoved) edges.delete(edgeKey(edge));
  for (const edge of patch.edgesAdded) edges.set(edgeKey(edge), edge);

  const roots = [...nodes.values()]
    .filter(node => !node.parentId || !nodes.has(node.parentId))
    .map(node => node.id)
    .sort(compareIds);
  return {
    nodes: forestOrder(nodes, roots),
    edges: [...edges.values()],
    roots,
  };
}
