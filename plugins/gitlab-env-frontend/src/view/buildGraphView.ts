import {
  HealthCounts,
  HealthStatus,
  ResourceEdgeType,
  ResourceNode,
  ResourceTree,
  TreeGraph,
  TreeNode,
  resourceTree,
  summarizeHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  DEFAULT_HIDDEN_KINDS,
  POD_GROUP_THRESHOLD,
  SIBLING_GROUP_THRESHOLD,
} from './kinds';

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
  resource: TreeNode;
  parentId?: string;
  childIds: string[];
  /** Shown only because something below it matches the filters. */
  context: boolean;
}

/**
 * Siblings of one kind (a ReplicaSet's pods, a Kustomization's
 * Deployments, roots of one kind) drawn as one node, with their subtrees:
 * what a large graph shows instead of thousands of boxes. A click shows
 * the next page of them (`expanded`), the rest stay grouped.
 */
export interface SiblingGroupViewNode {
  type: 'siblings';
  id: string;
  /** The node they are children of; undefined for roots. */
  parentId?: string;
  kind: string;
  /** How the parent relates to them (`owns`, `manages`...). */
  via: ResourceEdgeType;
  childIds: string[];
  /** The siblings the group stands for (those not shown). */
  memberIds: string[];
  /** How many siblings of the kind there are, shown ones included. */
  total: number;
  /** Counts per status of the members' subtrees, and the worst. */
  counts: HealthCounts;
  status?: HealthStatus;
}

export type ViewNode = ResourceViewNode | SiblingGroupViewNode;

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
  /** Per sibling group (its id): how many of its siblings the user showed. */
  expanded: ReadonlyMap<string, number>;
  /** Pods of one owner past this many are grouped. */
  podGroupThreshold?: number;
  /** Other siblings of one kind past this many are grouped. */
  siblingGroupThreshold?: number;
}

/**
 * Turns the engine's tree into what the graph view draws, on the tree the
 * engine places nodes in (`resourceTree`, which the drawer's chain follows
 * too): kinds hidden by default are dropped (their children move up to the
 * nearest shown ancestor), filters keep matching resources and the
 * ancestors that give them context, and siblings of one kind past a
 * threshold (pods past a handful) collapse into a group node, subtrees
 * and all. Pure and linear, so it can rerun on every filter change and
 * live patch.
 */
export function buildGraphView(
  graph: TreeGraph,
  {
    filters,
    expanded,
    podGroupThreshold = POD_GROUP_THRESHOLD,
    siblingGroupThreshold = SIBLING_GROUP_THRESHOLD,
  }: GraphViewOptions,
  tree: ResourceTree = resourceTree(graph),
): GraphView {
  const byId = new Map(graph.nodes.map(node => [node.id, node]));
  const { kindShown, matches, filtering } = resourceMatcher(filters);
  const hiddenCount = graph.nodes.filter(node => !kindShown(node)).length;
  const treeChildren = (id: string) => tree.children.get(id) ?? [];

  // Tree children, skipping over hidden kinds.
  const shownChildren = (node: TreeNode): string[] => {
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
  const contextOnly = (node: TreeNode) => filtering && !matches(node);

  // Roots: the tree's first, then nodes whose parents are all hidden.
  const keptRoots: string[] = [];
  const rootSeen = new Set<string>();
  for (const id of [...tree.roots, ...graph.nodes.map(node => node.id)]) {
    if (kept.has(id) && !parents.has(id) && !rootSeen.has(id)) {
      rootSeen.add(id);
      keptRoots.push(id);
    }
  }

  // Siblings past the thresholds collapse into groups; what a group hides
  // (its members and everything below them) is drawn as the group.
  const groups = new Map<string, SiblingGroupViewNode>();
  const grouped = (parentId: string | undefined, ids: string[]) => {
    const byKind = new Map<string, string[]>();
    for (const id of ids) {
      const node = byId.get(id)!;
      // Pods group only as leaves, as the pod groups always did.
      if (
        node.kind === 'Pod' &&
        !node.group &&
        children.get(id)!.some(grandChild => kept.has(grandChild))
      )
        continue;
      const list = byKind.get(node.kind) ?? [];
      list.push(id);
      byKind.set(node.kind, list);
    }
    let shown = ids;
    const hidden: Array<[member: string, group: string]> = [];
    for (const [kind, members] of byKind) {
      const threshold =
        kind === 'Pod' ? podGroupThreshold : siblingGroupThreshold;
      if (members.length <= threshold) continue;
      const id = siblingGroupId(parentId, kind);
      const inGroup = members.slice(expanded.get(id) ?? 0);
      if (inGroup.length === 0) continue;
      const { counts, status } = summarizeHealth(
        inGroup.map(member => {
          const node = byId.get(member)!;
          return node.subtreeHealth
            ? { status: node.subtreeHealth }
            : node.health;
        }),
      );
      const place = tree.places.get(inGroup[0]);
      groups.set(id, {
        type: 'siblings',
        id,
        parentId,
        kind,
        via: place && place.parentId === parentId ? place.via : 'owns',
        childIds: [],
        memberIds: inGroup,
        total: members.length,
        counts,
        status: counts.none === inGroup.length ? undefined : status,
      });
      const inGroupSet = new Set(inGroup);
      const at = shown.indexOf(inGroup[0]);
      shown = shown.filter(child => !inGroupSet.has(child));
      shown.splice(Math.min(at, shown.length), 0, id);
      inGroup.forEach(member => hidden.push([member, id]));
    }
    return { shown, hidden };
  };

  // Down the view's tree, parents first: a node below a grouped one is
  // drawn as its group (its edges go to the group).
  const representative = new Map<string, string>();
  const nodes: ViewNode[] = [];
  const stack: Array<[id: string, hiddenBy?: string]> = [];
  const push = ({ shown, hidden }: ReturnType<typeof grouped>) => {
    for (let i = hidden.length - 1; i >= 0; i--) stack.push(hidden[i]);
    for (let i = shown.length - 1; i >= 0; i--)
      if (!groups.has(shown[i])) stack.push([shown[i]]);
  };
  const walk = () => {
    while (stack.length > 0) {
      const [id, hiddenBy] = stack.pop()!;
      if (representative.has(id)) continue;
      representative.set(id, hiddenBy ?? id);
      const keptChildren = children.get(id)!.filter(child => kept.has(child));
      if (hiddenBy !== undefined) {
        for (let i = keptChildren.length - 1; i >= 0; i--)
          stack.push([keptChildren[i], hiddenBy]);
        continue;
      }
      const below = grouped(id, keptChildren);
      const node = byId.get(id)!;
      nodes.push({
        type: 'resource',
        id,
        resource: node,
        parentId: parents.get(id),
        childIds: below.shown,
        context: contextOnly(node),
      });
      push(below);
    }
  };
  const top = grouped(undefined, keptRoots);
  push(top);
  walk();
  // What the roots do not reach (a cycle of placements): drawn as roots.
  const roots = [...top.shown];
  for (const id of kept)
    if (!representative.has(id)) {
      roots.push(id);
      stack.push([id]);
      walk();
    }
  nodes.push(...groups.values());

  return {
    nodes,
    edges: viewEdges(graph, tree, nodes, representative),
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

/** The id of the group of a parent's children of one kind (of roots of one kind). */
export function siblingGroupId(
  parentId: string | undefined,
  kind: string,
): string {
  return `${parentId ?? ''}#${kind}`;
}

function viewEdges(
  graph: TreeGraph,
  tree: ResourceTree,
  nodes: ViewNode[],
  representative: Map<string, string>,
): ViewEdge[] {
  const groupVia = new Map(
    nodes.flatMap(node =>
      node.type === 'siblings' ? [[node.id, node.via] as const] : [],
    ),
  );
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
      // Via a hidden kind, the link is still ownership; into a group, its members'.
      const place = tree.places.get(childId);
      add(
        node.id,
        childId,
        groupVia.get(childId) ??
          (place?.parentId === node.id ? place.via : 'owns'),
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
