import { isWorseHealth } from '../health';
import { ResourceNode } from '../types';

/** The ownership forest: nodes parents first, and the roots. */
export interface Forest {
  /** Every node, each after its tree parent (depth first, children in id order). */
  nodes: ResourceNode[];
  /** Ids of nodes with no tree parent, sorted. */
  roots: string[];
}

const NONE = -1;

/**
 * The ownership forest of `nodes`, given each node's tree parent as a node
 * index (`parents[i]`, -1 for none): cuts parent cycles, sets `parentId`,
 * sorts `childIds` and roots by id, orders nodes parents first and rolls
 * health up into `subtreeHealth`. Iterative and linear apart from sorting
 * each child list and the roots; works on node indexes, so it neither
 * builds a map of ids nor sorts all ids at once.
 */
export function assembleForest(
  nodes: readonly ResourceNode[],
  parents: number[],
): Forest {
  const count = nodes.length;
  cutCycles(parents);

  // Children of each node as one flat array, `children[start[p]..start[p + 1])`.
  const start = new Int32Array(count + 1);
  for (let i = 0; i < count; i++)
    if (parents[i] !== NONE) start[parents[i] + 1]++;
  for (let i = 0; i < count; i++) start[i + 1] += start[i];
  const children = new Int32Array(start[count]);
  const filled = start.slice(0, count);
  const roots: number[] = [];
  for (let i = 0; i < count; i++) {
    const parent = parents[i];
    if (parent === NONE) roots.push(i);
    else children[filled[parent]++] = i;
  }
  const byId = (a: number, b: number) => (nodes[a].id < nodes[b].id ? -1 : 1);
  roots.sort(byId);
  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    const parent = parents[i];
    node.parentId = parent === NONE ? undefined : nodes[parent].id;
    const childCount = start[i + 1] - start[i];
    if (childCount === 0) continue;
    if (childCount > 1) children.subarray(start[i], start[i + 1]).sort(byId);
    // Sized once: pushing onto the empty array would reserve 17 slots.
    const childIds: string[] = new Array(childCount);
    for (let c = 0; c < childCount; c++)
      childIds[c] = nodes[children[start[i] + c]].id;
    node.childIds = childIds;
  }

  // Depth first from the sorted roots: every node comes after its parent,
  // so walking the order backwards rolls health up.
  const order = new Int32Array(count);
  let ordered = 0;
  const stack = roots.slice().reverse();
  while (stack.length > 0) {
    const index = stack.pop()!;
    order[ordered++] = index;
    for (let c = start[index + 1] - 1; c >= start[index]; c--)
      stack.push(children[c]);
  }
  const sorted: ResourceNode[] = new Array(count);
  for (let o = count - 1; o >= 0; o--) {
    const index = order[o];
    const node = nodes[index];
    // Undefined when nothing below carries health, like ArgoCD's tree.
    let worst = node.health?.status;
    for (let c = start[index]; c < start[index + 1]; c++) {
      const below = nodes[children[c]].subtreeHealth;
      if (below && (!worst || isWorseHealth(worst, below))) worst = below;
    }
    node.subtreeHealth = worst;
    sorted[o] = node;
  }
  return { nodes: sorted, roots: roots.map(index => nodes[index].id) };
}

/**
 * Walks each parent chain once; a chain that comes back to itself is a
 * cycle, broken by dropping the parent link that closes it.
 */
function cutCycles(parents: number[]) {
  const OPEN = 1;
  const DONE = 2;
  const state = new Uint8Array(parents.length);
  const path: number[] = [];
  for (let first = 0; first < parents.length; first++) {
    let current = first;
    while (current !== NONE && state[current] === 0) {
      state[current] = OPEN;
      path.push(current);
      current = parents[current];
    }
    if (current !== NONE && state[current] === OPEN)
      parents[path[path.length - 1]] = NONE;
    for (const index of path) state[index] = DONE;
    path.length = 0;
  }
}
