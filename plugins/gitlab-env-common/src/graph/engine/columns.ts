/** A typed column: the engine keeps its records in these, indexed by number. */
export type Column = Int32Array | Uint8Array | Int8Array;

/**
 * The empty columns every table starts with, shared: a column of length 0
 * is never written, and a new engine (the backend makes one per
 * environment, most of them small) allocates nothing until it reserves.
 */
export const NO_INT32: Int32Array = new Int32Array(0);
export const NO_UINT8: Uint8Array = new Uint8Array(0);
export const NO_INT8: Int8Array = new Int8Array(0);

/** Fewest entries a column is made with. */
const MIN_CAPACITY = 16;

/**
 * The capacity of a column of `length` grown to hold `size` entries: the
 * size itself the first time (a reserve knows it: a bulk load of 20
 * objects gets columns of 20, not 64), else doubling.
 */
export function capacityFor(length: number, size: number): number {
  if (length === 0) return Math.max(MIN_CAPACITY, size);
  let capacity = length * 2;
  while (capacity < size) capacity *= 2;
  return capacity;
}

/** A column of `like`'s element type, over part of a buffer if given. */
function columnLike<T extends Column>(
  like: T,
  length: number,
  buffer?: ArrayBuffer,
  at = 0,
): T {
  // Each type spelled out: a constructor read from the column is a
  // megamorphic call the engine makes per column grown.
  if (like instanceof Int32Array)
    return (
      buffer ? new Int32Array(buffer, at, length) : new Int32Array(length)
    ) as T;
  if (like instanceof Int8Array)
    return (
      buffer ? new Int8Array(buffer, at, length) : new Int8Array(length)
    ) as T;
  return (
    buffer ? new Uint8Array(buffer, at, length) : new Uint8Array(length)
  ) as T;
}

/**
 * The column grown to hold at least `size` entries, new entries `fill`.
 * The engine keeps its records in typed columns indexed by number: no
 * object per node key, read, edge or bid, so a bulk load allocates little
 * beyond the nodes and edges it hands out.
 */
export function grown<T extends Column>(column: T, size: number, fill = 0): T {
  if (size <= column.length) return column;
  return filled(
    columnLike(column, capacityFor(column.length, size)),
    column,
    fill,
  );
}

/** Bytes of a column of `length` entries, rounded up so the next one starts at a multiple of 4 (as an Int32Array must). */
function roomFor(length: number, bytesPerEntry: number): number {
  return (length * bytesPerEntry + 3) & ~3;
}

/**
 * Room for columns grown at once, in one buffer: allocating an ArrayBuffer
 * costs more than filling it, and a new engine (the backend makes one per
 * environment, most of them small) reserves every table's columns at its
 * first batch. Columns are grown in two passes of the same code (see
 * inOneBuffer): while measuring, each column is given back as it is and
 * its bytes counted; then each is made over its part of the buffer.
 */
export class Arena {
  private bytes = 0;
  private buffer: ArrayBuffer | undefined = undefined;
  private offset = 0;

  /** Ends the measuring pass; whether any column grows. */
  start(): boolean {
    if (this.bytes === 0) return false;
    this.buffer = new ArrayBuffer(this.bytes);
    return true;
  }

  /** Whether this is the pass that makes the columns (lists beside them are grown in it alone). */
  get making(): boolean {
    return this.buffer !== undefined;
  }

  /** The column grown to hold `size` entries, new entries `fill` (while measuring: the column). */
  grown<T extends Column>(column: T, size: number, fill = 0): T {
    if (size <= column.length) return column;
    const capacity = capacityFor(column.length, size);
    const at = this.take(roomFor(capacity, column.BYTES_PER_ELEMENT));
    if (at < 0) return column;
    return filled(columnLike(column, capacity, this.buffer, at), column, fill);
  }

  /** While measuring, counts the bytes and gives -1; then the offset of their part of the buffer. */
  private take(bytes: number): number {
    if (this.buffer === undefined) {
      this.bytes += bytes;
      return -1;
    }
    const at = this.offset;
    this.offset += bytes;
    return at;
  }
}

function filled<T extends Column>(made: T, column: T, fill: number): T {
  made.set(column);
  if (fill !== 0) made.fill(fill, column.length);
  return made;
}

/**
 * Runs `owner.grow(size, arena)` (which grows columns through the arena)
 * measuring, then making them in one buffer. A method and its owner rather
 * than a closure: a function that makes a closure over its own variables
 * allocates their context on every call, grow or not, and the engine
 * grows from paths it runs for every node, edge and frame.
 */
export function inOneBuffer<T>(
  owner: T,
  size: number,
  grow: (this: T, size: number, arena: Arena) => void,
) {
  const arena = new Arena();
  grow.call(owner, size, arena);
  if (arena.start()) grow.call(owner, size, arena);
}

/**
 * A list of values per number (node slot, edge) with room for `size`:
 * made whole rather than grown one entry at a time, since growing copies it
 * and leaves the old copies behind, every one for the collector, and the
 * engine fills these for every node of a bulk load.
 */
export function listWithRoom<T>(list: T[], size: number): T[] {
  if (size <= list.length) return list;
  const made: T[] = new Array(size);
  for (let at = 0; at < list.length; at++) made[at] = list[at];
  return made;
}

/**
 * Numbers for records of one kind, reused once freed: a free list threaded
 * through a column the caller names.
 */
export class Numbers {
  private next = 0;
  private readonly free: number[] = [];

  /** A number not in use (the caller grows its columns to `bound`). */
  take(): number {
    const reused = this.free.pop();
    return reused === undefined ? this.next++ : reused;
  }

  release(number: number) {
    this.free.push(number);
  }

  /** How many numbers are in use. */
  get inUse(): number {
    return this.next - this.free.length;
  }
}

/**
 * A list of slots each marked while in it. The list is a typed column, and
 * two take turns: slots marked while a taken list is gone through go to
 * the other, and neither is made again (a bulk load marks every node).
 */
export class Marks {
  private list = NO_INT32;
  private spare = NO_INT32;
  size = 0;
  private marked = NO_UINT8;

  add(slot: number) {
    if (slot >= this.marked.length) this.marked = grown(this.marked, slot + 1);
    if (this.marked[slot]) return;
    this.marked[slot] = 1;
    if (this.size >= this.list.length)
      this.list = grown(this.list, this.size + 1);
    this.list[this.size++] = slot;
  }

  /** Room for this many slots without growing, in the arena's buffer. */
  reserve(slots: number, arena: Arena) {
    this.marked = arena.grown(this.marked, slots);
    this.list = arena.grown(this.list, slots);
    this.spare = arena.grown(this.spare, slots);
  }

  /**
   * Takes the slots marked since the last take, unmarked: gives how many,
   * and `taken` holds them until the next take, which reuses its storage
   * (no list or view is made per take: an apply takes several).
   */
  take(): number {
    const list = this.list;
    const size = this.size;
    this.list = this.spare;
    this.spare = list;
    this.size = 0;
    for (let at = 0; at < size; at++) this.marked[list[at]] = 0;
    return size;
  }

  /** The slots of the last take (the first as many as it gave). */
  get taken(): Int32Array {
    return this.spare;
  }
}
