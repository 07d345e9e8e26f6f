import {
  Arena,
  NO_INT32,
  NO_UINT8,
  Numbers,
  grown,
  inOneBuffer,
} from './columns';

const NONE = -1;

/**
 * Bids to be a node's tree parent: each ranked `owns`/`manages` addition
 * of a frame bids for its target. A node's parent is the source of its
 * best bid: the lowest rank, then the earliest origin in input order, then
 * the frame's place (the whole before its items, items in list order) and
 * the addition's index within the frame. Forgetting a frame marks its bids
 * dead; a target's list drops them when next read.
 *
 * A one-shot engine (`keepAll` false) forgets nothing, so only each
 * target's best bid so far is kept, in the same columns (a bid per node).
 */
export class BidTable {
  private readonly numbers = new Numbers();
  private frame = NO_INT32;
  private origin = NO_INT32;
  private place = NO_INT32;
  private index = NO_INT32;
  private rank = NO_INT32;
  private source = NO_INT32;
  private target = NO_INT32;
  private nextInTarget = NO_INT32;
  private nextOfFrame = NO_INT32;
  private dead = NO_UINT8;
  private targetBids = NO_INT32;
  private frameBids = NO_INT32;

  constructor(private readonly keepAll: boolean) {}

  private grow(size: number, arena: Arena) {
    this.origin = arena.grown(this.origin, size);
    this.place = arena.grown(this.place, size);
    this.index = arena.grown(this.index, size);
    this.rank = arena.grown(this.rank, size);
    this.source = arena.grown(this.source, size);
    // What only a list of bids per target needs.
    if (!this.keepAll) return;
    this.frame = arena.grown(this.frame, size);
    this.target = arena.grown(this.target, size);
    this.nextInTarget = arena.grown(this.nextInTarget, size);
    this.nextOfFrame = arena.grown(this.nextOfFrame, size);
    this.dead = arena.grown(this.dead, size);
  }

  /** Room for the bids of this many nodes without growing. */
  reserve(nodes: number, arena: Arena) {
    this.grow(nodes, arena);
    this.targetBids = arena.grown(this.targetBids, nodes, NONE);
    if (this.keepAll)
      this.frameBids = arena.grown(this.frameBids, nodes * 2, NONE);
  }

  addSlot(slot: number, reused: boolean) {
    if (slot >= this.targetBids.length)
      this.targetBids = grown(this.targetBids, slot + 1, NONE);
    else if (reused) this.targetBids[slot] = NONE;
  }

  addFrame(frame: number) {
    if (!this.keepAll) return;
    if (frame >= this.frameBids.length)
      this.frameBids = grown(this.frameBids, frame + 1, NONE);
    this.frameBids[frame] = NONE;
  }

  add(
    frame: number,
    origin: number,
    place: number,
    index: number,
    rank: number,
    source: number,
    target: number,
    orders: ArrayLike<number>,
  ) {
    if (!this.keepAll) {
      this.keepBest(origin, place, index, rank, source, target, orders);
      return;
    }
    const bid = this.numbers.take();
    if (bid >= this.frame.length) inOneBuffer(this, bid + 1, this.grow);
    this.write(bid, origin, place, index, rank, source);
    this.frame[bid] = frame;
    this.target[bid] = target;
    this.dead[bid] = 0;
    this.nextInTarget[bid] = this.targetBids[target];
    this.targetBids[target] = bid;
    this.nextOfFrame[bid] = this.frameBids[frame];
    this.frameBids[frame] = bid;
  }

  private write(
    bid: number,
    origin: number,
    place: number,
    index: number,
    rank: number,
    source: number,
  ) {
    this.origin[bid] = origin;
    this.place[bid] = place;
    this.index[bid] = index;
    this.rank[bid] = rank;
    this.source[bid] = source;
  }

  /**
   * A one-shot engine's bid: kept in the target's own entry (bid number =
   * target) when it is the first or better than the one kept there.
   */
  private keepBest(
    origin: number,
    place: number,
    index: number,
    rank: number,
    source: number,
    target: number,
    orders: ArrayLike<number>,
  ) {
    if (target >= this.rank.length) inOneBuffer(this, target + 1, this.grow);
    if (
      this.targetBids[target] !== NONE &&
      // Compared as a list stores it: an int32.
      !this.precedes(rank | 0, origin, place, index, target, orders)
    )
      return;
    this.targetBids[target] = target;
    this.write(target, origin, place, index, rank, source);
  }

  /** Marks the frame's bids dead; calls `changed` with each target. */
  forget(frame: number, changed: (target: number) => void) {
    // A one-shot engine never forgets: it keeps no bids per frame.
    if (!this.keepAll) return;
    for (let bid = this.frameBids[frame]; bid !== NONE; ) {
      this.dead[bid] = 1;
      changed(this.target[bid]);
      bid = this.nextOfFrame[bid];
    }
    this.frameBids[frame] = NONE;
  }

  /** The source of the node's best live bid, or -1; `orders[slot]` is a node's place in the input. */
  best(target: number, orders: ArrayLike<number>): number {
    if (!this.keepAll)
      return this.targetBids[target] === NONE ? NONE : this.source[target];
    let best = NONE;
    let prev = NONE;
    for (let bid = this.targetBids[target]; bid !== NONE; ) {
      const next = this.nextInTarget[bid];
      if (this.dead[bid]) {
        if (prev === NONE) this.targetBids[target] = next;
        else this.nextInTarget[prev] = next;
        this.numbers.release(bid);
        bid = next;
        continue;
      }
      if (best === NONE || this.better(bid, best, orders)) best = bid;
      prev = bid;
      bid = next;
    }
    return best === NONE ? NONE : this.source[best];
  }

  private better(a: number, b: number, orders: ArrayLike<number>): boolean {
    return this.precedes(
      this.rank[a],
      this.origin[a],
      this.place[a],
      this.index[a],
      b,
      orders,
    );
  }

  /** Whether a bid of these fields is better than bid `b`. */
  private precedes(
    rank: number,
    origin: number,
    place: number,
    index: number,
    b: number,
    orders: ArrayLike<number>,
  ): boolean {
    if (rank !== this.rank[b]) return rank < this.rank[b];
    const originB = this.origin[b];
    if (origin !== originB) return orders[origin] < orders[originB];
    if (place !== this.place[b]) return place < this.place[b];
    return index < this.index[b];
  }

  /** A freed node: its bids (all dead by now) go. */
  clearSlot(slot: number) {
    if (!this.keepAll) {
      this.targetBids[slot] = NONE;
      return;
    }
    for (let bid = this.targetBids[slot]; bid !== NONE; ) {
      const next = this.nextInTarget[bid];
      this.numbers.release(bid);
      bid = next;
    }
    this.targetBids[slot] = NONE;
  }
}
