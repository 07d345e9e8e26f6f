import { RESOURCE_EDGE_TYPES, ResourceEdge } from '../../types/graph';
import { ResourceNode } from '../../types';
import {
  Arena,
  NO_INT32,
  NO_INT8,
  NO_UINT8,
  Numbers,
  grown,
  inOneBuffer,
  listWithRoom,
} from './columns';

const NONE = -1;

const EMPTY = -1;
const TOMBSTONE = -2;
const WAS_IN = 1;
const REMOVED = 2;
/** Fewest slots of the hash table, made on the first edge or reserve. */
const MIN_TABLE = 16;

/** Edge types by number, and numbers by type (in RESOURCE_EDGE_TYPES order). */
export const EDGE_TYPE_NUMBER: ReadonlyMap<string, number> = new Map(
  RESOURCE_EDGE_TYPES.map((type, number) => [type, number]),
);

function hash(source: number, target: number, type: number): number {
  const h =
    Math.imul(source, 0x9e3779b1) ^ Math.imul(target + 1, 0x85ebca6b) ^ type;
  return h ^ (h >>> 15);
}

/** Edges added and removed by one apply. */
export interface EdgeChanges {
  added: ResourceEdge[];
  removed: ResourceEdge[];
}

/**
 * The edges of the graph, each (source, target, type) once however many
 * inferences add it (a count of additions), found by an open-addressing
 * hash of the three numbers, and listed in the order first added. What
 * each frame added is a list of addition entries, so forgetting a frame
 * takes its additions back. An edge's `ResourceEdge` is made when it is
 * first handed out.
 */
export class EdgeTable {
  private readonly numbers = new Numbers();
  private source = NO_INT32;
  private target = NO_INT32;
  private type = NO_INT8;
  private count = NO_INT32;
  /** The apply that last took the edge in or out of the graph. */
  private touched = NO_INT32;
  private flags = NO_UINT8;
  private handedOut: Array<ResourceEdge | undefined> = [];

  private table = NO_INT32;
  private filled = 0;

  private order = NO_INT32;
  private orderLength = 0;
  private removedInOrder = 0;

  private touchedNow: number[] = [];
  private apply = 0;

  // Additions: an edge a frame added, in the frame's list.
  private readonly additionNumbers = new Numbers();
  private additionEdge = NO_INT32;
  private additionNext = NO_INT32;
  private frameAdditions = NO_INT32;
  /** How many additions each frame holds, for their sequence numbers. */
  private frameAdditionCount = NO_INT32;

  /** `host.nodes`: the nodes by slot, as they are now. */
  constructor(
    private readonly host: {
      readonly nodes: ReadonlyArray<ResourceNode | undefined>;
    },
  ) {}

  /** Starts an apply: what it takes in or out is reported at `settle`. */
  begin(apply: number) {
    this.apply = apply;
  }

  /** Room for edges and (when recorded) additions of this many nodes without growing. */
  reserve(nodes: number, record: boolean, arena: Arena) {
    const edges = nodes * 2;
    this.growEdges(edges, arena);
    this.order = arena.grown(this.order, edges);
    this.frameAdditionCount = arena.grown(this.frameAdditionCount, edges);
    if (record) {
      this.growAdditions(edges, arena);
      this.frameAdditions = arena.grown(this.frameAdditions, edges, NONE);
    }
    // Environments hold under two edges a node: a table of four slots a
    // node stays under half full, and small enough to stay in cache.
    let capacity = Math.max(this.table.length, MIN_TABLE);
    while (nodes * 4 > capacity) capacity *= 2;
    if (capacity > this.table.length) {
      this.rehashTo(capacity);
    }
  }

  /** A new frame has added nothing yet (`record`: as in add). */
  addFrame(frame: number, record: boolean) {
    if (frame >= this.frameAdditionCount.length)
      this.frameAdditionCount = grown(this.frameAdditionCount, frame + 1);
    this.frameAdditionCount[frame] = 0;
    if (!record) return;
    if (frame >= this.frameAdditions.length)
      this.frameAdditions = grown(this.frameAdditions, frame + 1, NONE);
    this.frameAdditions[frame] = NONE;
  }

  private growEdges(size: number, arena: Arena) {
    this.source = arena.grown(this.source, size);
    this.target = arena.grown(this.target, size);
    this.type = arena.grown(this.type, size);
    this.count = arena.grown(this.count, size);
    this.touched = arena.grown(this.touched, size, NONE);
    this.flags = arena.grown(this.flags, size);
  }

  private growAdditions(size: number, arena: Arena) {
    this.additionEdge = arena.grown(this.additionEdge, size);
    this.additionNext = arena.grown(this.additionNext, size);
  }

  /**
   * The frame adds an edge; gives the index of the addition in the frame
   * (its sequence among the frame's additions). Unless `record`, only its
   * index is counted (a one-shot load forgets nothing).
   */
  add(
    frame: number,
    source: number,
    target: number,
    type: number,
    record: boolean,
  ): number {
    const edge = this.findOrMake(source, target, type);
    // A one-shot load forgets nothing: it keeps no count of additions.
    if (!record) return this.frameAdditionCount[frame]++;
    this.count[edge] += 1;
    if (this.count[edge] === 1) this.touch(edge, false);
    const addition = this.additionNumbers.take();
    if (addition >= this.additionEdge.length)
      inOneBuffer(this, addition + 1, this.growAdditions);
    this.additionEdge[addition] = edge;
    this.additionNext[addition] = this.frameAdditions[frame];
    this.frameAdditions[frame] = addition;
    return this.frameAdditionCount[frame]++;
  }

  /** Takes back everything the frame added. */
  forget(frame: number) {
    // A frame of a one-shot load has no list (it is never forgotten).
    let addition =
      frame < this.frameAdditions.length ? this.frameAdditions[frame] : NONE;
    if (addition === NONE) return;
    this.frameAdditions[frame] = NONE;
    this.frameAdditionCount[frame] = 0;
    while (addition !== NONE) {
      const edge = this.additionEdge[addition];
      this.count[edge] -= 1;
      if (this.count[edge] === 0) this.touch(edge, true);
      const next = this.additionNext[addition];
      this.additionNumbers.release(addition);
      addition = next;
    }
  }

  private touch(edge: number, wasIn: boolean) {
    if (this.touched[edge] === this.apply) return;
    this.touched[edge] = this.apply;
    this.flags[edge] = (this.flags[edge] & ~WAS_IN) | (wasIn ? WAS_IN : 0);
    this.touchedNow.push(edge);
  }

  private findOrMake(source: number, target: number, type: number): number {
    if (this.table.length === 0) this.rehashTo(MIN_TABLE);
    const mask = this.table.length - 1;
    let at = hash(source, target, type) & mask;
    let reuse = NONE;
    for (;;) {
      const edge = this.table[at];
      if (edge === EMPTY) break;
      if (edge === TOMBSTONE) {
        if (reuse === NONE) reuse = at;
      } else if (
        this.source[edge] === source &&
        this.target[edge] === target &&
        this.type[edge] === type
      ) {
        return edge;
      }
      at = (at + 1) & mask;
    }
    const edge = this.numbers.take();
    if (edge >= this.source.length) inOneBuffer(this, edge + 1, this.growEdges);
    // Its count, touched and flags are a new edge's (see compact).
    this.source[edge] = source;
    this.target[edge] = target;
    this.type[edge] = type;
    if (reuse === NONE) {
      this.table[at] = edge;
      this.filled += 1;
      // At most half full (tombstones included), so probes stay short.
      if (this.filled * 2 > this.table.length) this.rehash();
    } else {
      this.table[reuse] = edge;
    }
    if (this.orderLength >= this.order.length)
      this.order = grown(this.order, this.orderLength + 1);
    this.order[this.orderLength++] = edge;
    return edge;
  }

  private rehash() {
    let live = 0;
    for (const edge of this.table) if (edge >= 0) live += 1;
    let capacity = this.table.length;
    while (live * 4 > capacity) capacity *= 2;
    this.rehashTo(capacity);
  }

  private rehashTo(capacity: number) {
    const live: number[] = [];
    for (const edge of this.table) if (edge >= 0) live.push(edge);
    this.table = new Int32Array(capacity).fill(EMPTY);
    const mask = capacity - 1;
    for (const edge of live) {
      let at =
        hash(this.source[edge], this.target[edge], this.type[edge]) & mask;
      while (this.table[at] !== EMPTY) at = (at + 1) & mask;
      this.table[at] = edge;
    }
    this.filled = live.length;
  }

  private unhash(edge: number) {
    const mask = this.table.length - 1;
    let at = hash(this.source[edge], this.target[edge], this.type[edge]) & mask;
    while (this.table[at] !== edge) at = (at + 1) & mask;
    this.table[at] = TOMBSTONE;
  }

  /** The edge's `ResourceEdge`, made once and kept to be handed out again. */
  private objectOf(edge: number): ResourceEdge {
    if (edge >= this.handedOut.length)
      this.handedOut = listWithRoom(this.handedOut, this.source.length);
    let object = this.handedOut[edge];
    if (object === undefined) {
      object = this.made(edge);
      this.handedOut[edge] = object;
    }
    return object;
  }

  private made(edge: number): ResourceEdge {
    return {
      source: this.host.nodes[this.source[edge]]!.id,
      target: this.host.nodes[this.target[edge]]!.id,
      type: RESOURCE_EDGE_TYPES[this.type[edge]],
    };
  }

  /**
   * Takes the edges no addition holds out of the graph; gives what the
   * apply changed when asked. Runs before the slots of removed nodes are
   * freed (a removed edge names them).
   */
  settle(report: boolean): EdgeChanges | undefined {
    const changes: EdgeChanges | undefined = report
      ? { added: [], removed: [] }
      : undefined;
    for (const edge of this.touchedNow) {
      const inNow = this.count[edge] > 0;
      const wasIn = (this.flags[edge] & WAS_IN) !== 0;
      if (changes && inNow !== wasIn)
        (inNow ? changes.added : changes.removed).push(this.objectOf(edge));
      if (!inNow) {
        this.flags[edge] |= REMOVED;
        this.unhash(edge);
        this.removedInOrder += 1;
      }
    }
    this.touchedNow = [];
    if (this.removedInOrder * 2 > this.orderLength) this.compact();
    return changes;
  }

  /** Drops removed edges from the order and frees their numbers. */
  private compact() {
    let kept = 0;
    for (let at = 0; at < this.orderLength; at++) {
      const edge = this.order[at];
      if (this.flags[edge] & REMOVED) {
        this.handedOut[edge] = undefined;
        // As a new edge's, for the number's next edge.
        this.count[edge] = 0;
        this.touched[edge] = NONE;
        this.flags[edge] = 0;
        this.numbers.release(edge);
      } else {
        this.order[kept++] = edge;
      }
    }
    this.orderLength = kept;
    this.removedInOrder = 0;
  }

  /**
   * The edges of the graph, in the order first added. `keep`: whether
   * their objects are kept to be handed out again, in patches and later
   * graphs (a one-shot graph hands them out once).
   */
  edges(keep: boolean): ResourceEdge[] {
    const edges: ResourceEdge[] = new Array(
      this.orderLength - this.removedInOrder,
    );
    let count = 0;
    for (let at = 0; at < this.orderLength; at++) {
      const edge = this.order[at];
      if ((this.flags[edge] & REMOVED) === 0)
        edges[count++] = keep ? this.objectOf(edge) : this.made(edge);
    }
    return edges;
  }
}
