/** Marks an id built whole rather than from a shared prefix. */
export const NO_PREFIX = -1;

/**
 * Compares node indexes as their ids compare (code unit order), reading
 * whole ids only for ids built whole. Most ids are a shared prefix,
 * `group/Kind/namespace/`, and a name; with no `/` in any part, every
 * prefix holds exactly three, so no prefix starts another and two ids
 * order as their prefixes do, or, for one prefix, as their names do. The
 * prefixes are ranked once; comparing then reads two numbers and, within
 * a prefix, two short names, and leaves the ids, which are prefix-name
 * concatenations, unflattened.
 *
 * `prefixOf[i]` is the number of node i's prefix in `prefixes`, or
 * NO_PREFIX when `ids[i]` was built whole.
 */
export function idComparator(
  ids: readonly string[],
  names: readonly string[],
  prefixes: readonly string[],
  prefixOf: ArrayLike<number>,
): (a: number, b: number) => number {
  const byPrefix = prefixes.map((_, number) => number);
  byPrefix.sort((a, b) => compareStrings(prefixes[a], prefixes[b]));
  const rank = new Int32Array(prefixes.length);
  byPrefix.forEach((number, position) => {
    rank[number] = position;
  });
  return (a, b) => {
    const prefixA = prefixOf[a];
    const prefixB = prefixOf[b];
    if (prefixA === NO_PREFIX || prefixB === NO_PREFIX)
      return compareStrings(ids[a], ids[b]);
    if (prefixA !== prefixB) return rank[prefixA] - rank[prefixB];
    return compareStrings(names[a], names[b]);
  };
}

function compareStrings(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
