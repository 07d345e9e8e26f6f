import { ResourceEdgeType, ResourceGraph } from '../types';
import { PLACING_EDGE_TYPES } from './relations';

/** Where a node sits in the tree the graph is drawn as. */
export interface TreePlace {
  /** The node it is drawn right of. */
  parentId: string;
  /** How the parent relates to it: `owns`/`manages` (its tree parent), else `routes`/`scales`. */
  via: ResourceEdgeType;
}

/**
 * The tree the graph is drawn as, one for the graph view and the drawer's
 * chain alike: the ownership forest (`parentId`/`childIds`), and each node
 * nothing owns placed right of a node relating to it by a placing relation
 * (an Ingress's Service, an HPA's Deployment; see `Relation.placesUnowned`),
 * so that the edge between them reads left to right, as in ArgoCD's network
 * view. Of several such sources the one with the smallest id wins, unless
 * it sits below the node already.
 *
 * @public
 */
export interface ResourceTree {
  /** Tree parent of each placed node. */
  places: Map<string, TreePlace>;
  /** Children per node: its `childIds`, then the nodes placed under it, by id. */
  children: Map<string, string[]>;
  /** Nodes with no place, in the graph's root order. */
  roots: string[];
}

const compareIds = (a: string, b: string) => {
  if (a < b) return -1;
  return a > b ? 1 : 0;
};

/** @public */
export function resourceTree(graph: ResourceGraph): ResourceTree {
  const places = new Map<string, TreePlace>();
  const children = new Map<string, string[]>();
  const ids = new Set<string>();
  for (const node of graph.nodes) {
    ids.add(node.id);
    children.set(node.id, [...node.childIds]);
  }
  const ownership = new Map<string, ResourceEdgeType>();
  for (const edge of graph.edges) {
    if (edge.type === 'owns' || edge.type === 'manages')
      ownership.set(`${edge.source}\u0000${edge.target}`, edge.type);
  }
  for (const node of graph.nodes) {
    if (node.parentId === undefined) continue;
    places.set(node.id, {
      parentId: node.parentId,
      via: ownership.get(`${node.parentId}\u0000${node.id}`) ?? 'owns',
    });
  }
  const placing = graph.edges
    .filter(
      edge =>
        PLACING_EDGE_TYPES.has(edge.type) &&
        edge.source !== edge.target &&
        ids.has(edge.source) &&
        ids.has(edge.target),
    )
    .sort(
      (a, b) =>
        compareIds(a.target, b.target) || compareIds(a.source, b.source),
    );
  for (const edge of placing) {
    if (places.has(edge.target)) continue;
    if (isBelow(places, edge.source, edge.target)) continue; // would make a cycle
    places.set(edge.target, { parentId: edge.source, via: edge.type });
    children.get(edge.source)!.push(edge.target);
  }
  return {
    places,
    children,
    roots: graph.roots.filter(id => !places.has(id)),
  };
}

/** Whether `id` is `ancestor` or sits below it. */
function isBelow(
  places: ReadonlyMap<string, TreePlace>,
  id: string,
  ancestor: string,
): boolean {
  const seen = new Set<string>();
  for (let at: string | undefined = id; at !== undefined; ) {
    if (at === ancestor) return true;
    if (seen.has(at)) return false;
    seen.add(at);
    at = places.get(at)?.parentId;
  }
  return false;
}

/**
 * The nodes above one in the tree, top first, each with how it relates to
 * the next: what the drawer shows as the node's chain.
 *
 * @public
 */
export function treePath(tree: ResourceTree, id: string): TreePlace[] {
  const path: TreePlace[] = [];
  const seen = new Set([id]);
  for (
    let place = tree.places.get(id);
    place && !seen.has(place.parentId);
    place = tree.places.get(place.parentId)
  ) {
    seen.add(place.parentId);
    path.unshift(place);
  }
  return path;
}
