/**
 * The column grown to hold at least `size` entries (doubling), new entries
 * `fill`. The engine keeps its records in typed columns indexed by number:
 * no object per node key, read, edge or bid, so a bulk load allocates
 * little beyond the nodes and edges it hands out.
 */
export function grown<T extends Int32Array | Uint8Array | Int8Array>(
  column: T,
  size: number,
  fill = 0,
): T {
  if (size <= column.length) return column;
  let capacity = Math.max(16, column.length * 2);
  while (capacity < size) capacity *= 2;
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column);
  if (fill !== 0) next.fill(fill, column.length);
  return next;
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
