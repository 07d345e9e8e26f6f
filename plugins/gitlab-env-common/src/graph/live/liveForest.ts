import { healthSeverity, rollsUp } from '../../health/aggregate';
import { HEALTH_STATUSES, ResourceNode } from '../../types';

const NONE = -1;

function compareIds(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/** What the forest reads and writes of the live graph's nodes. */
export interface ForestNodes {
  /** The node of a slot, as it is now. */
  node(slot: number): ResourceNode;
  /** The node of a slot, copied for this apply if it was not yet, to change. */
  writable(slot: number): ResourceNode;
  /** Whether the slot holds a node that stays after this apply. */
  alive(slot: number): boolean;
  /** The tree parent the node's best ranked in-edge claims, or NONE. */
  bestParent(slot: number): number;
}

/**
 * The ownership forest of the live graph, kept as the whole-graph build
 * assembles it: each node's parent from its best bid, cycles cut at their
 * member with the smallest id, children sorted by id, roots, and each
 * node's subtree health. Marked nodes are settled once per apply.
 */
export class LiveForest {
  private readonly rawParents: number[] = [];
  private readonly parents: number[] = [];
  private readonly children: number[][] = [];
  private readonly cut = new Set<number>();
  private readonly roots = new Set<number>();
  private readonly severities: number[] = [];
  private parentDirty = new Set<number>();
  private rollupDirty = new Set<number>();
  /** Nodes whose children changed: their childIds are written once per apply. */
  private childrenChanged = new Set<number>();

  constructor(private readonly nodes: ForestNodes) {}

  add(slot: number) {
    this.rawParents[slot] = NONE;
    this.parents[slot] = NONE;
    this.children[slot] = [];
    this.severities[slot] = NONE;
    this.roots.add(slot);
    this.rollupDirty.add(slot);
  }

  /** Takes a node out (it must already be marked released); its children look for parents again. */
  remove(slot: number) {
    this.setParent(slot, NONE);
    this.roots.delete(slot);
    this.cut.delete(slot);
    for (const child of this.children[slot]) this.parentDirty.add(child);
  }

  /** The bids for a node's parent changed. */
  markParent(slot: number) {
    this.parentDirty.add(slot);
  }

  /** A node's own health changed. */
  markHealth(slot: number) {
    this.rollupDirty.add(slot);
  }

  rootSlots(): ReadonlySet<number> {
    return this.roots;
  }

  childrenOf(slot: number): readonly number[] {
    return this.children[slot];
  }

  /** Parents, cycles, children and roll-up of every node marked. */
  settle() {
    this.settleParents();
    for (const slot of this.childrenChanged) {
      if (!this.nodes.alive(slot)) continue;
      this.nodes.writable(slot).childIds = this.children[slot].map(
        child => this.nodes.node(child).id,
      );
    }
    this.childrenChanged.clear();
    this.settleRollup();
  }

  private settleParents() {
    const changed: number[] = [];
    for (const slot of this.parentDirty) {
      if (!this.nodes.alive(slot)) continue;
      const raw = this.nodes.bestParent(slot);
      if (raw !== this.rawParents[slot]) {
        this.rawParents[slot] = raw;
        changed.push(slot);
      }
    }
    this.parentDirty.clear();
    // Cycles: each is cut at its member with the smallest id, so the cut
    // does not depend on the order objects arrived in.
    const affected = new Set<number>(changed);
    for (const slot of [...this.cut]) {
      if (!this.nodes.alive(slot) || this.cycleCutOf(slot) !== slot) {
        this.cut.delete(slot);
        affected.add(slot);
      }
    }
    for (const slot of changed) {
      const member = this.cycleCutOf(slot);
      if (member !== NONE && !this.cut.has(member)) {
        this.cut.add(member);
        affected.add(member);
      }
    }
    for (const slot of affected) {
      if (!this.nodes.alive(slot)) continue;
      this.setParent(slot, this.cut.has(slot) ? NONE : this.rawParents[slot]);
    }
  }

  /**
   * The member with the smallest id of the cycle of raw parents through a
   * node, or NONE when the node's chain ends at a root or enters a cycle
   * it is not on.
   */
  private cycleCutOf(start: number): number {
    const seen = new Set<number>();
    let current = this.rawParents[start];
    seen.add(start);
    while (current !== NONE && !seen.has(current)) {
      seen.add(current);
      current = this.rawParents[current];
    }
    if (current !== start) return NONE;
    let smallest = start;
    for (let m = this.rawParents[start]; m !== start; m = this.rawParents[m])
      if (compareIds(this.nodes.node(m).id, this.nodes.node(smallest).id) < 0)
        smallest = m;
    return smallest;
  }

  private setParent(slot: number, parent: number) {
    const old = this.parents[slot];
    if (old === parent) return;
    const id = this.nodes.node(slot).id;
    if (old !== NONE) {
      const siblings = this.children[old];
      const at = siblings.indexOf(slot);
      if (at >= 0) siblings.splice(at, 1);
      this.childrenChanged.add(old);
      this.rollupDirty.add(old);
    }
    this.parents[slot] = parent;
    const alive = this.nodes.alive(slot);
    if (parent === NONE) {
      if (alive) this.roots.add(slot);
    } else {
      this.roots.delete(slot);
      const siblings = this.children[parent];
      let low = 0;
      let high = siblings.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (compareIds(this.nodes.node(siblings[mid]).id, id) < 0)
          low = mid + 1;
        else high = mid;
      }
      siblings.splice(low, 0, slot);
      this.childrenChanged.add(parent);
      this.rollupDirty.add(parent);
    }
    if (alive)
      this.nodes.writable(slot).parentId =
        parent === NONE ? undefined : this.nodes.node(parent).id;
  }

  private settleRollup() {
    const queue = [...this.rollupDirty];
    this.rollupDirty.clear();
    while (queue.length > 0) {
      const slot = queue.pop()!;
      if (!this.nodes.alive(slot)) continue;
      const node = this.nodes.node(slot);
      let worst = rollsUp(node.health)
        ? healthSeverity(node.health.status)
        : NONE;
      for (const child of this.children[slot])
        if (this.severities[child] > worst) worst = this.severities[child];
      const status = worst < 0 ? undefined : HEALTH_STATUSES[worst];
      if (worst === this.severities[slot] && node.subtreeHealth === status)
        continue;
      this.severities[slot] = worst;
      if (node.subtreeHealth !== status)
        this.nodes.writable(slot).subtreeHealth = status;
      const parent = this.parents[slot];
      if (parent !== NONE) queue.push(parent);
    }
  }
}
