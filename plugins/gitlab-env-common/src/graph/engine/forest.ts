import { HEALTH_STATUSES } from '../../types/health';
import { ResourceNode } from '../../types';
import {
  Arena,
  Marks,
  NO_INT32,
  NO_INT8,
  capacityFor,
  inOneBuffer,
} from './columns';

const NONE = -1;
const NO_CHILDREN: readonly number[] = [];
/** Counters per node: one per health status. */
const STATUSES = HEALTH_STATUSES.length;

/** What the forest reads and writes of the engine's nodes. */
export interface ForestNodes {
  /** The nodes by slot, as they are now. */
  readonly nodes: ReadonlyArray<ResourceNode | undefined>;
  /** The node of a slot, copied for this apply if it was handed out, to change. */
  writable(slot: number): ResourceNode;
  /** Whether the slot holds a node that stays after this apply. */
  alive(slot: number): boolean;
  /** The tree parent the node's best ranked in-edge claims, or -1. */
  bestParent(slot: number): number;
  /** The severity of the node's own health, -1 when it does not roll up. */
  ownSeverity(slot: number): number;
  /** Orders nodes as their ids compare. */
  compareSlots(a: number, b: number): number;
}

/** Longest list sorted by insertion (no allocation); most child lists are a handful long. */
const INSERTION_SORT_MAX = 12;

/** Sorts slots in place by a comparison, short lists by insertion. */
function sortSlots(slots: number[], compare: (a: number, b: number) => number) {
  if (slots.length > INSERTION_SORT_MAX) {
    slots.sort(compare);
    return;
  }
  for (let i = 1; i < slots.length; i++) {
    const value = slots[i];
    let j = i - 1;
    while (j >= 0 && compare(slots[j], value) > 0) {
      slots[j + 1] = slots[j];
      j--;
    }
    slots[j + 1] = value;
  }
}

/**
 * The ownership forest: each node's tree parent (the source of its best
 * bid), ownership cycles cut at their member with the smallest id (so the
 * cut does not depend on the order objects came in), children sorted by
 * id, and each node's subtree health. Marked nodes are settled once per
 * apply, however many there are: a bulk load settles every node once.
 *
 * Each node counts its children's subtree severities per status, so a
 * node's roll-up reads six counters rather than its children, and a
 * change walks up only while it changes something.
 */
export class Forest {
  private rawParents = NO_INT32;
  private parents = NO_INT32;
  private readonly children: Array<number[] | undefined> = [];
  /** Subtree severity per node, as published; -1 when nothing in it carries health. */
  private subtree = NO_INT8;
  private counts = NO_INT32;
  private readonly cut = new Set<number>();
  private readonly parentDirty = new Marks();
  private readonly rollupDirty = new Marks();
  /** Nodes whose children changed: sorted and written once per apply. */
  private readonly childrenChanged = new Marks();
  /** Nodes whose parent may change in the settle in progress. */
  private readonly affected = new Marks();
  /** Per slot: which walk of cycle detection saw it last, and how far it got. */
  private walked = NO_INT32;
  private walks = 0;

  constructor(private readonly host: ForestNodes) {}

  /** Room for this many nodes without growing. */
  reserve(nodes: number, arena: Arena) {
    if (nodes > this.parents.length) this.grow(nodes, arena);
  }

  /** Grows the columns per node (and the marks) together, in one buffer. */
  private grow(nodes: number, arena: Arena) {
    // Counters for as many nodes as the other columns hold.
    const size = capacityFor(this.parents.length, nodes);
    this.rawParents = arena.grown(this.rawParents, size);
    this.parents = arena.grown(this.parents, size);
    this.walked = arena.grown(this.walked, size);
    this.counts = arena.grown(this.counts, size * STATUSES);
    this.subtree = arena.grown(this.subtree, size);
    // The marks grow on their own when they must; reserved with the rest.
    for (const marks of [
      this.parentDirty,
      this.rollupDirty,
      this.childrenChanged,
      this.affected,
    ])
      marks.reserve(size, arena);
  }

  add(slot: number, reused: boolean) {
    if (slot >= this.parents.length) inOneBuffer(this, slot + 1, this.grow);
    this.rawParents[slot] = NONE;
    this.parents[slot] = NONE;
    this.subtree[slot] = NONE;
    // Set for every new slot, in order: a parent's list set first at a slot
    // past the end would make the array sparse (a dictionary, slow to grow).
    this.children[slot] = undefined;
    if (reused) this.counts.fill(0, slot * STATUSES, (slot + 1) * STATUSES);
    this.rollupDirty.add(slot);
  }

  /** Takes a node out (it must already be released); its children look for parents again. */
  remove(slot: number) {
    this.setParent(slot, NONE);
    this.cut.delete(slot);
    for (const child of this.children[slot] ?? []) this.parentDirty.add(child);
  }

  /** The bids for a node's parent changed. */
  markParent(slot: number) {
    this.parentDirty.add(slot);
  }

  /** A node's own health changed. */
  markHealth(slot: number) {
    this.rollupDirty.add(slot);
  }

  isRoot(slot: number): boolean {
    return this.parents[slot] === NONE;
  }

  childrenOf(slot: number): readonly number[] {
    return this.children[slot] ?? NO_CHILDREN;
  }

  /** Parents, cycles, children and roll-up of every node marked. */
  settle() {
    this.settleParents();
    const { nodes } = this.host;
    const byId = this.host.compareSlots;
    const changedCount = this.childrenChanged.take();
    const changedChildren = this.childrenChanged.taken;
    for (let at = 0; at < changedCount; at++) {
      const slot = changedChildren[at];
      if (!this.host.alive(slot)) continue;
      const children = this.children[slot];
      if (children === undefined || children.length === 0) {
        this.host.writable(slot).childIds = [];
        continue;
      }
      sortSlots(children, byId);
      const ids: string[] = new Array(children.length);
      for (let c = 0; c < children.length; c++) ids[c] = nodes[children[c]]!.id;
      this.host.writable(slot).childIds = ids;
    }
    this.settleRollup();
  }

  private settleParents() {
    // The nodes whose raw parent changed, kept in the taken list itself.
    const dirtyCount = this.parentDirty.take();
    const dirty = this.parentDirty.taken;
    let count = 0;
    for (let at = 0; at < dirtyCount; at++) {
      const slot = dirty[at];
      if (!this.host.alive(slot)) continue;
      const raw = this.host.bestParent(slot);
      if (raw !== this.rawParents[slot]) {
        this.rawParents[slot] = raw;
        dirty[count++] = slot;
      }
    }
    if (count === 0 && this.cut.size === 0) return;
    const affected = this.affected;
    for (let at = 0; at < count; at++) affected.add(dirty[at]);
    // A cut that is no longer its cycle's smallest member (or no longer on
    // a cycle) is joined again.
    if (this.cut.size > 0)
      for (const slot of [...this.cut]) {
        if (!this.host.alive(slot) || this.cycleCutOf(slot) !== slot) {
          this.cut.delete(slot);
          affected.add(slot);
        }
      }
    // Every new cycle runs through a node whose parent changed: walk up
    // from each, never twice over a node in one settle.
    const open = ++this.walks * 2;
    const done = open + 1;
    for (let at = 0; at < count; at++) {
      const start = dirty[at];
      let current = start;
      while (current !== NONE && this.walked[current] < open) {
        this.walked[current] = open;
        current = this.rawParents[current];
      }
      if (current !== NONE && this.walked[current] === open) {
        const member = this.smallestOnCycle(current);
        if (!this.cut.has(member)) {
          this.cut.add(member);
          affected.add(member);
        }
      }
      for (let m = start; m !== NONE && this.walked[m] === open; ) {
        this.walked[m] = done;
        m = this.rawParents[m];
      }
    }
    this.walks += 1;
    const affectedCount = affected.take();
    const affectedSlots = affected.taken;
    for (let at = 0; at < affectedCount; at++) {
      const slot = affectedSlots[at];
      if (!this.host.alive(slot)) continue;
      this.setParent(slot, this.cut.has(slot) ? NONE : this.rawParents[slot]);
    }
  }

  /** The member with the smallest id of the cycle of raw parents through `start`. */
  private smallestOnCycle(start: number): number {
    let smallest = start;
    for (let m = this.rawParents[start]; m !== start; m = this.rawParents[m])
      if (this.host.compareSlots(m, smallest) < 0) smallest = m;
    return smallest;
  }

  /**
   * The member with the smallest id of the cycle of raw parents through a
   * node, or -1 when its chain ends at a root or enters a cycle it is not on.
   */
  private cycleCutOf(start: number): number {
    const seen = new Set<number>([start]);
    let current = this.rawParents[start];
    while (current !== NONE && !seen.has(current)) {
      seen.add(current);
      current = this.rawParents[current];
    }
    return current === start ? this.smallestOnCycle(start) : NONE;
  }

  private setParent(slot: number, parent: number) {
    const old = this.parents[slot];
    if (old === parent) return;
    const severity = this.subtree[slot];
    if (old !== NONE) {
      const siblings = this.children[old]!;
      const at = siblings.indexOf(slot);
      if (at >= 0) siblings.splice(at, 1);
      if (severity >= 0) this.counts[old * STATUSES + severity] -= 1;
      this.childrenChanged.add(old);
      this.rollupDirty.add(old);
    }
    this.parents[slot] = parent;
    if (parent !== NONE) {
      const siblings = this.children[parent];
      if (siblings === undefined) this.children[parent] = [slot];
      else siblings.push(slot);
      if (severity >= 0) this.counts[parent * STATUSES + severity] += 1;
      this.childrenChanged.add(parent);
      this.rollupDirty.add(parent);
    }
    if (this.host.alive(slot))
      this.host.writable(slot).parentId =
        parent === NONE ? undefined : this.host.nodes[parent]!.id;
  }

  private settleRollup() {
    const counts = this.counts;
    const queue = this.rollupDirty;
    const statuses = HEALTH_STATUSES;
    while (queue.size > 0) {
      const queued = queue.take();
      const slots = queue.taken;
      for (let at = 0; at < queued; at++) {
        const slot = slots[at];
        if (!this.host.alive(slot)) continue;
        let worst = this.host.ownSeverity(slot);
        const base = slot * STATUSES;
        for (let s = STATUSES - 1; s > worst; s--)
          if (counts[base + s] > 0) {
            worst = s;
            break;
          }
        const old = this.subtree[slot];
        // The node holds the status of `old` (a new node none): written only
        // when it changes, so an unchanged node is not read at all.
        if (worst === old) continue;
        this.subtree[slot] = worst;
        const parent = this.parents[slot];
        if (parent !== NONE) {
          if (old >= 0) counts[parent * STATUSES + old] -= 1;
          if (worst >= 0) counts[parent * STATUSES + worst] += 1;
          queue.add(parent);
        }
        this.host.writable(slot).subtreeHealth =
          worst < 0 ? undefined : statuses[worst];
      }
    }
  }
}
