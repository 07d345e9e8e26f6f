import { healthSeverity, rollsUp } from '../health/aggregate';
import { HEALTH_STATUSES, ResourceNode } from '../types';
import { idComparator } from './idOrder';

/** The ownership forest: nodes parents first, and the roots. */
export interface Forest {
  /** Every node, each after its tree parent (depth first, children in id order). */
  nodes: ResourceNode[];
  /** Ids of nodes with no tree parent, sorted. */
  roots: string[];
}

/** The nodes' ids, and how they are built, to order them cheaply (see idComparator). */
export interface IdParts {
  ids: readonly string[];
  prefixes: readonly string[];
  prefixOf: ArrayLike<number>;
}

const NONE = -1;

/**
 * The ownership forest of `nodes`, given each node's tree parent as a node
 * index (`parents[i]`, -1 for none): cuts parent cycles, sets `parentId`,
 * sorts `childIds` and roots by id, orders nodes parents first and rolls
 * health up into `subtreeHealth`. Iterative and linear apart from sorting
 * each child list and the roots.
 *
 * Works on node indexes in flat arrays: node objects are read and written
 * in one pass each, in input order, never chased in tree order.
 */
export function assembleForest(
  nodes: readonly ResourceNode[],
  parents: number[],
  idParts: IdParts,
): Forest {
  const count = nodes.length;
  const { ids } = idParts;
  const names: string[] = new Array(count);
  // Severity of each node's own health, -1 for none.
  const severity = new Int8Array(count);
  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    names[i] = node.name;
    severity[i] = rollsUp(node.health)
      ? healthSeverity(node.health.status)
      : -1;
  }
  const byId = idComparator(ids, names, idParts.prefixes, idParts.prefixOf);
  cutCycles(parents, byId);

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
  roots.sort(byId);
  for (let i = 0; i < count; i++)
    sortRange(children, start[i], start[i + 1], byId);

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
  // Worst severity of each subtree, -1 when nothing in it carries health,
  // like ArgoCD's tree.
  const worst = severity;
  for (let o = count - 1; o >= 0; o--) {
    const index = order[o];
    for (let c = start[index]; c < start[index + 1]; c++)
      if (worst[children[c]] > worst[index]) worst[index] = worst[children[c]];
  }

  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    node.parentId = parents[i] === NONE ? undefined : ids[parents[i]];
    node.subtreeHealth = worst[i] < 0 ? undefined : HEALTH_STATUSES[worst[i]];
    const childCount = start[i + 1] - start[i];
    if (childCount === 0) continue;
    // Sized once: pushing onto the empty array would reserve 17 slots.
    const childIds: string[] = new Array(childCount);
    for (let c = 0; c < childCount; c++)
      childIds[c] = ids[children[start[i] + c]];
    node.childIds = childIds;
  }
  const sorted: ResourceNode[] = new Array(count);
  for (let o = 0; o < count; o++) sorted[o] = nodes[order[o]];
  return { nodes: sorted, roots: roots.map(index => ids[index]) };
}

/** Longest range sorted by insertion; most child lists are a handful long. */
const INSERTION_SORT_MAX = 12;

/**
 * Sorts `values[from..to)` in place: short ranges by insertion, which
 * allocates nothing, longer ones by the typed array's own sort.
 */
function sortRange(
  values: Int32Array,
  from: number,
  to: number,
  compare: (a: number, b: number) => number,
) {
  if (to - from > INSERTION_SORT_MAX) {
    values.subarray(from, to).sort(compare);
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const value = values[i];
    let j = i - 1;
    while (j >= from && compare(values[j], value) > 0) {
      values[j + 1] = values[j];
      j--;
    }
    values[j + 1] = value;
  }
}

/**
 * Walks each parent chain once; a chain that comes back to itself is a
 * cycle, broken by dropping the parent link of its member with the
 * smallest id, so which link goes does not depend on the order of the
 * input (the live graph cuts the same one). A second walk marks the chain
 * done, rather than keeping it in a list: emptying a list frees its
 * storage, so every chain would allocate anew.
 */
function cutCycles(parents: number[], byId: (a: number, b: number) => number) {
  const OPEN = 1;
  const DONE = 2;
  const state = new Uint8Array(parents.length);
  for (let first = 0; first < parents.length; first++) {
    let current = first;
    let last = NONE;
    while (current !== NONE && state[current] === 0) {
      state[current] = OPEN;
      last = current;
      current = parents[current];
    }
    if (current !== NONE && state[current] === OPEN && last !== NONE) {
      // The whole cycle is done, whichever link goes.
      let smallest = current;
      state[current] = DONE;
      for (let member = parents[current]; member !== current; ) {
        if (byId(member, smallest) < 0) smallest = member;
        state[member] = DONE;
        member = parents[member];
      }
      parents[smallest] = NONE;
    }
    for (let open = first; open !== NONE && state[open] === OPEN; ) {
      state[open] = DONE;
      open = parents[open];
    }
  }
}
