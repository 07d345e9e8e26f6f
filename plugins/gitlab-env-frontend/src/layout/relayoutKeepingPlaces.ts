import {
  LayoutForest,
  LayoutOptions,
  NodePosition,
  ResourceGraphLayout,
  layoutResourceGraph,
} from './layoutResourceGraph';

/**
 * Lays a forest out again after a live change without moving what the
 * change did not touch: a node placed before at the same depth keeps its
 * place; a new node goes to its column below its previous sibling (or
 * beside its parent), a new root below everything, each moved down to the
 * first free row so no two nodes of a column overlap. Removed nodes leave
 * their rows empty until the view is laid out from scratch (no previous
 * layout), which the page does when the user changes what is shown.
 */
export function relayoutKeepingPlaces(
  graph: LayoutForest,
  previous: ResourceGraphLayout | undefined,
  options: LayoutOptions = {},
): ResourceGraphLayout {
  const fresh = layoutResourceGraph(graph, options);
  if (!previous || previous.positions.size === 0) return fresh;
  const rowStep = fresh.nodeHeight + (options.rowGap ?? 14);
  const treeGap = options.treeGap ?? 28;
  const columnStep = fresh.nodeWidth + (options.columnGap ?? 72);

  const positions = new Map<string, NodePosition>();
  const columns = new Map<number, number[]>();
  const occupy = (depth: number, y: number) => {
    const column = columns.get(depth) ?? [];
    column.push(y);
    columns.set(depth, column);
  };
  const free = (depth: number, y: number) =>
    !(columns.get(depth) ?? []).some(other => Math.abs(other - y) < rowStep);

  for (const [id, place] of fresh.positions) {
    const before = previous.positions.get(id);
    if (before && before.depth === place.depth) {
      positions.set(id, before);
      occupy(before.depth, before.y);
    }
  }
  let bottom = 0;
  for (const place of positions.values())
    bottom = Math.max(bottom, place.y + rowStep);

  const parentOf = new Map<string, string>();
  const childrenOf = new Map<string, readonly string[]>();
  for (const node of graph.nodes) {
    childrenOf.set(node.id, node.childIds);
    for (const child of node.childIds) parentOf.set(child, node.id);
  }
  // Parents before children, so a new child can sit beside its parent.
  const order = [...fresh.positions.entries()].sort(
    ([, a], [, b]) => a.depth - b.depth || a.y - b.y,
  );
  for (const [id, place] of order) {
    if (positions.has(id)) continue;
    const parentId = parentOf.get(id);
    const parent = parentId ? positions.get(parentId) : undefined;
    let y: number;
    if (parent) {
      const siblings = childrenOf.get(parentId!) ?? [];
      const placedBefore = siblings
        .slice(0, siblings.indexOf(id))
        .map(sibling => positions.get(sibling))
        .filter((p): p is NodePosition => Boolean(p));
      y = placedBefore.length
        ? Math.max(...placedBefore.map(p => p.y)) + rowStep
        : parent.y;
    } else {
      y = bottom + treeGap;
    }
    while (!free(place.depth, y)) y += rowStep;
    positions.set(id, { x: place.depth * columnStep, y, depth: place.depth });
    occupy(place.depth, y);
    bottom = Math.max(bottom, y + rowStep);
  }

  let width = 0;
  let height = 0;
  for (const place of positions.values()) {
    width = Math.max(width, place.x + fresh.nodeWidth);
    height = Math.max(height, place.y + fresh.nodeHeight);
  }
  return { ...fresh, positions, width, height };
}
