/**
 * The part of a graph the layout reads: a forest given by each node's tree
 * children and the roots. The engine's `ResourceGraph` fits it as is, and so
 * does the UI's filtered, grouped view of it.
 */
export interface LayoutForest {
  nodes: ReadonlyArray<{ id: string; childIds: readonly string[] }>;
  roots: readonly string[];
}

export interface LayoutOptions {
  /** Width of a node box; columns are this plus `columnGap` apart. */
  nodeWidth?: number;
  nodeHeight?: number;
  columnGap?: number;
  rowGap?: number;
  /** Extra space between two root trees, so separate apps read apart. */
  treeGap?: number;
}

export interface NodePosition {
  /** Top-left corner, as React Flow positions nodes. */
  x: number;
  y: number;
  /** Depth in the forest: 0 for roots. */
  depth: number;
}

export interface ResourceGraphLayout {
  positions: Map<string, NodePosition>;
  width: number;
  height: number;
  nodeWidth: number;
  nodeHeight: number;
  /** The empty channel between two columns, and the gap between two rows. */
  columnGap?: number;
  rowGap?: number;
}

const DEFAULTS: Required<LayoutOptions> = {
  nodeWidth: 260,
  nodeHeight: 72,
  columnGap: 72,
  rowGap: 14,
  treeGap: 28,
};

/**
 * Lays a resource forest out left to right, like ArgoCD's resource tree:
 * one column per depth, leaves stacked top to bottom in tree order and each
 * parent centred beside the band its children occupy. Every subtree owns a
 * band of rows no other subtree uses, so siblings never overlap, and it runs
 * in linear time (a general layered layout spends most of its time
 * minimising crossings that a forest does not have).
 *
 * Nodes the roots do not reach (a cycle, a dangling parent) are laid out as
 * extra roots, so every node gets a position.
 */
export function layoutResourceGraph(
  graph: LayoutForest,
  options: LayoutOptions = {},
): ResourceGraphLayout {
  const { nodeWidth, nodeHeight, columnGap, rowGap, treeGap } = {
    ...DEFAULTS,
    ...options,
  };
  const childrenOf = new Map<string, readonly string[]>();
  for (const node of graph.nodes) childrenOf.set(node.id, node.childIds);

  const positions = new Map<string, NodePosition>();
  const rowStep = nodeHeight + rowGap;
  const columnStep = nodeWidth + columnGap;
  let cursor = 0;
  let maxDepth = 0;

  const layOutTree = (rootId: string) => {
    // Iterative post-order walk: a deep or wide tree must not overflow the stack.
    const stack: Array<{ id: string; depth: number; next: number }> = [
      { id: rootId, depth: 0, next: 0 },
    ];
    const firstChildY = new Map<string, number>();
    const lastChildY = new Map<string, number>();
    positions.set(rootId, { x: 0, y: 0, depth: 0 });
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const children = childrenOf.get(frame.id) ?? [];
      if (frame.next < children.length) {
        const childId = children[frame.next++];
        if (positions.has(childId) || !childrenOf.has(childId)) continue;
        positions.set(childId, { x: 0, y: 0, depth: frame.depth + 1 });
        stack.push({ id: childId, depth: frame.depth + 1, next: 0 });
        continue;
      }
      stack.pop();
      const first = firstChildY.get(frame.id);
      let y: number;
      if (first === undefined) {
        y = cursor;
        cursor += rowStep;
      } else {
        y = (first + lastChildY.get(frame.id)!) / 2;
      }
      positions.set(frame.id, {
        x: frame.depth * columnStep,
        y,
        depth: frame.depth,
      });
      maxDepth = Math.max(maxDepth, frame.depth);
      const parent = stack[stack.length - 1];
      if (parent) {
        if (!firstChildY.has(parent.id)) firstChildY.set(parent.id, y);
        lastChildY.set(parent.id, y);
      }
    }
    cursor += treeGap;
  };

  for (const rootId of graph.roots) {
    if (childrenOf.has(rootId) && !positions.has(rootId)) layOutTree(rootId);
  }
  for (const node of graph.nodes) {
    if (!positions.has(node.id)) layOutTree(node.id);
  }

  return {
    positions,
    width: positions.size === 0 ? 0 : maxDepth * columnStep + nodeWidth,
    height: positions.size === 0 ? 0 : cursor - treeGap - rowGap,
    nodeWidth,
    nodeHeight,
    columnGap,
    rowGap,
  };
}
