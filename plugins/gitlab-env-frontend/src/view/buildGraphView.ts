import {
  HealthCounts,
  HealthStatus,
  KubernetesObject,
  ResourceEdgeType,
  ResourceGraph,
  ResourceNode,
  ResourceTree,
  resourceTree,
  summarizeHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { DEFAULT_HIDDEN_KINDS, POD_GROUP_THRESHOLD } from './kinds';

/** What the user narrowed the resources down to. */
export interface ResourceFilters {
  /** Kinds to show; empty shows every kind. */
  kinds: string[];
  /** Health statuses to show; empty shows every status. */
  health: HealthStatus[];
  /** Case-insensitive part of the name. */
  name: string;
  /** Show kinds hidden by default (Events, ConfigMaps, ...). */
  showAllKinds: boolean;
}

export const NO_FILTERS: ResourceFilters = {
  kinds: [],
  health: [],
  name: '',
  showAllKinds: false,
};

export interface ResourceViewNode {
  type: 'resource';
  id: string;
  resource: ResourceNode;
  object?: KubernetesObject;
  parentId?: string;
  childIds: string[];
  /** Shown only because something below it matches the filters. */
  context: boolean;
}

export interface PodGroupViewNode {
  type: 'podGroup';
  id: string;
  parentId: string;
  childIds: string[];
  memberIds: string[];
  counts: HealthCounts;
  status?: HealthStatus;
}

export type ViewNode = ResourceViewNode | PodGroupViewNode;

export interface ViewEdge {
  id: string;
  source: string;
  target: string;
  type: ResourceEdgeType;
  /** True for the edge that places the target in the tree. */
  tree: boolean;
}

export interface GraphView {
  nodes: ViewNode[];
  edges: ViewEdge[];
  roots: string[];
  /** Resources the filters match (context nodes excluded). */
  matchCount: number;
  /** Resources of kinds hidden by default, left out. */
  hiddenCount: number;
}

export interface GraphViewOptions {
  filters: ResourceFilters;
  /** Owners whose pod group the user expanded. */
  expandedGroups: ReadonlySet<string>;
  podGroupThreshold?: number;
}

/**
 * Turns the engine's graph into what the graph view draws, on the tree the
 * engine places nodes in (`resourceTree`, which the drawer's chain follows
 * too): kinds hidden by default are dropped (their children move up to the
 * nearest shown ancestor), filters keep matching resources and the
 * ancestors that give them context, and the pods of one owner collapse into
 * a group node past a handful. Pure and linear, so it can rerun on every
 * filter change.
 */
export function buildGraphView(
  graph: ResourceGraph,
  objects: ReadonlyMap<string, KubernetesObject>,
  { filters, expandedGroups, podGroupThreshold }: GraphViewOptions,
  tree: ResourceTree = resourceTree(graph),
): GraphView {
  const threshold = podGroupThreshold ?? POD_GROUP_THRESHOLD;
  const byId = new Map(graph.nodes.map(node => [node.id, node]));
  const { kindShown, matches, filtering } = resourceMatcher(filters);
  const hiddenCount = graph.nodes.filter(node => !kindShown(node)).length;
  const treeChildren = (id: string) => tree.children.get(id) ?? [];

  // Tree children, skipping over hidden kinds.
  const shownChildren = (node: ResourceNode): string[] => {
    const out: string[] = [];
    const pending = [...treeChildren(node.id)].reverse();
    while (pending.length > 0) {
      const child = byId.get(pending.pop()!);
      if (!child) continue;
      if (kindShown(child)) out.push(child.id);
      else pending.push(...[...treeChildren(child.id)].reverse());
    }
    return out;
  };
  const children = new Map<string, string[]>();
  const parents = new Map<string, string>();
  for (const node of graph.nodes) {
    if (!kindShown(node)) continue;
    const ids = shownChildren(node);
    children.set(node.id, ids);
    for (const childId of ids) {
      if (!parents.has(childId)) parents.set(childId, node.id);
    }
  }

  // Filters: a node stays when it matches or gives a match its context.
  const kept = new Set<string>();
  let matchCount = 0;
  for (const node of graph.nodes) {
    if (!children.has(node.id) || (filtering && !matches(node))) continue;
    matchCount++;
    for (
      let id: string | undefined = node.id;
      id !== undefined && !kept.has(id);
      id = parents.get(id)
    ) {
      kept.add(id);
    }
  }
  const contextOnly = (node: ResourceNode) => filtering && !matches(node);

  // Roots: the tree's first, then nodes whose parents are all hidden.
  const roots: string[] = [];
  const rootSeen = new Set<string>();
  for (const id of [...tree.roots, ...graph.nodes.map(node => node.id)]) {
    if (kept.has(id) && !parents.has(id) && !rootSeen.has(id)) {
      rootSeen.add(id);
      roots.push(id);
    }
  }

  const nodes: ViewNode[] = [];
  const representative = new Map<string, string>();
  for (const node of graph.nodes) {
    if (!kept.has(node.id)) continue;
    const keptChildren = children.get(node.id)!.filter(id => kept.has(id));
    const pods = keptChildren.filter(id => {
      const child = byId.get(id)!;
      return (
        child.kind === 'Pod' &&
        parents.get(id) === node.id &&
        children.get(id)!.every(grandChild => !kept.has(grandChild))
      );
    });
    let childIds = keptChildren;
    if (pods.length > threshold && !expandedGroups.has(node.id)) {
      const group = podGroup(node.id, pods, byId);
      nodes.push(group);
      for (const podId of pods) representative.set(podId, group.id);
      const podSet = new Set(pods);
      childIds = keptChildren.filter(id => !podSet.has(id));
      childIds.splice(keptChildren.indexOf(pods[0]), 0, group.id);
    }
    // A pod may come after its owner, which has already grouped it.
    if (!representative.has(node.id)) representative.set(node.id, node.id);
    nodes.push({
      type: 'resource',
      id: node.id,
      resource: node,
      object: objects.get(node.id),
      parentId: parents.get(node.id),
      childIds,
      context: contextOnly(node),
    });
  }
  // Grouped pods are not nodes of the view.
  const grouped = (id: string) => representative.get(id) !== id;
  const visibleNodes = nodes.filter(
    node => node.type === 'podGroup' || !grouped(node.id),
  );

  return {
    nodes: visibleNodes,
    edges: viewEdges(graph, tree, visibleNodes, representative),
    roots,
    matchCount,
    hiddenCount,
  };
}

/**
 * The filters as predicates, shared by the graph and the list view: which
 * kinds are shown at all, and which resources match.
 */
export function resourceMatcher(filters: ResourceFilters) {
  const needle = filters.name.trim().toLocaleLowerCase('en-US');
  const kindShown = (node: ResourceNode) =>
    filters.showAllKinds || !DEFAULT_HIDDEN_KINDS.has(node.kind);
  const matches = (node: ResourceNode) =>
    (filters.kinds.length === 0 || filters.kinds.includes(node.kind)) &&
    (filters.health.length === 0 ||
      (node.health !== undefined &&
        filters.health.includes(node.health.status))) &&
    (needle === '' || node.name.toLocaleLowerCase('en-US').includes(needle));
  return {
    kindShown,
    matches,
    filtering:
      filters.kinds.length > 0 || filters.health.length > 0 || needle !== '',
  };
}

function podGroup(
  ownerId: string,
  podIds: string[],
  byId: Map<string, ResourceNode>,
): PodGroupViewNode {
  // The engine's roll-up: counts per status, the worst of those with health.
  const { counts, status } = summarizeHealth(
    podIds.map(id => byId.get(id)!.health),
  );
  return {
    type: 'podGroup',
    id: podGroupId(ownerId),
    parentId: ownerId,
    childIds: [],
    memberIds: podIds,
    counts,
    status: counts.none === podIds.length ? undefined : status,
  };
}

export function podGroupId(ownerId: string): string {
  return `${ownerId}#pods`;
}

function viewEdges(
  graph: ResourceGraph,
  tree: ResourceTree,
  nodes: ViewNode[],
  representative: Map<string, string>,
): ViewEdge[] {
  const edges: ViewEdge[] = [];
  const seen = new Set<string>();
  const add = (
    source: string,
    target: string,
    type: ResourceEdgeType,
    inTree: boolean,
  ) => {
    const id = `${type}:${source}->${target}`;
    if (source === target || seen.has(id)) return;
    seen.add(id);
    edges.push({ id, source, target, type, tree: inTree });
  };
  // Tree edges first, so they draw beneath the cross-links.
  for (const node of nodes) {
    for (const childId of node.childIds) {
      // Via a hidden kind or into a pod group, the link is still ownership.
      const place = tree.places.get(childId);
      add(
        node.id,
        childId,
        place?.parentId === node.id ? place.via : 'owns',
        true,
      );
    }
  }
  for (const edge of graph.edges) {
    const source = representative.get(edge.source);
    const target = representative.get(edge.target);
    if (source === undefined || target === undefined) continue;
    if (seen.has(`${edge.type}:${source}->${target}`)) continue;
    add(source, target, edge.type, false);
  }
  return edges;
}
