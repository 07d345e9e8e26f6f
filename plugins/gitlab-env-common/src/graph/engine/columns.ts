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

/** A column like `like` (its element type) over `buffer`, or its own buffer. */
function columnLike<T extends Column>(
  like: T,
  length: number,
  buffer?: ArrayBuffer,
  offset = 0,
): T {
  // Each type spelled out: a constructor read from the column is a
  // megamorphic call the engine makes per column grown.
  if (like instanceof Int32Array)
    return (
      buffer ? new Int32Array(buffer, offset, length) : new Int32Array(length)
    ) as T;
  if (like instanceof Int8Array)
    return (
      buffer ? new Int8Array(buffer, offset, length) : new Int8Array(length)
    ) as T;
  return (
    buffer ? new Uint8Array(buffer, offset, length) : new Uint8Array(length)
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
  const next = columnLike(column, capacityFor(column.length, size));
  next.set(column);
  if (fill !== 0) next.fill(fill, column.length);
  return next;
}

/**
 * Room for the columns a reserve makes, in one buffer for all of an
 * engine's tables: allocating an ArrayBuffer costs more than filling it,
 * and a new engine (the backend makes one per environment) reserves once.
 * The reserve runs twice: while measuring, growColumns only counts the
 * bytes it needs; then it takes them from the buffer.
 */
export class Arena {
  private bytes = 0;
  private buffer: ArrayBuffer | undefined = undefined;
  private offset = 0;

  /** Ends the measuring pass; whether there is anything to make. */
  start(): boolean {
    if (this.bytes === 0) return false;
    this.buffer = new ArrayBuffer(this.bytes);
    return true;
  }

  /** While measuring: counts `bytes`, undefined. Then: the buffer, at the offset where they start. */
  take(bytes: number): [ArrayBuffer, number] | undefined {
    if (this.buffer === undefined) {
      this.bytes += bytes;
      return undefined;
    }
    const offset = this.offset;
    this.offset += bytes;
    return [this.buffer, offset];
  }
}

/** The names of an object's typed columns. */
export type ColumnName<O> = {
  [K in keyof O]: O[K] extends Column ? K : never;
}[keyof O];

/**
 * Grows some of an object's columns at once, each to hold at least its
 * size (one for all, or one each in `names` order) with new entries its
 * fill (0 unless given), the grown ones in one buffer: a table's columns
 * grow together, and one allocation is cheaper than one per column (the
 * backend makes an engine per environment, most of them small).
 */
export function growColumns<O>(
  owner: O,
  names: ReadonlyArray<ColumnName<O>>,
  sizes: number | readonly number[],
  fills: Partial<Record<ColumnName<O>, number>> = {},
  arena?: Arena,
) {
  const columns = owner as unknown as Record<ColumnName<O>, Column>;
  const capacities: number[] = new Array(names.length);
  let bytes = 0;
  for (let c = 0; c < names.length; c++) {
    const { length, BYTES_PER_ELEMENT } = columns[names[c]];
    const size = typeof sizes === 'number' ? sizes : sizes[c];
    capacities[c] = size <= length ? length : capacityFor(length, size);
    // Each column starts at a multiple of 4, as an Int32Array must.
    if (size > length) bytes += (capacities[c] * BYTES_PER_ELEMENT + 3) & ~3;
  }
  if (bytes === 0) return;
  let buffer: ArrayBuffer;
  let offset = 0;
  if (arena === undefined) buffer = new ArrayBuffer(bytes);
  else {
    const room = arena.take(bytes);
    if (room === undefined) return;
    [buffer, offset] = room;
  }
  for (let c = 0; c < names.length; c++) {
    const column = columns[names[c]];
    if (capacities[c] === column.length) continue;
    const made = columnLike(column, capacities[c], buffer, offset);
    offset += (capacities[c] * column.BYTES_PER_ELEMENT + 3) & ~3;
    made.set(column);
    const fill = fills[names[c]] ?? 0;
    if (fill !== 0) made.fill(fill, column.length);
    columns[names[c]] = made;
  }
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
