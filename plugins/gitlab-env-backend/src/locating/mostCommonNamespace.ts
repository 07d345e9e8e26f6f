/**
 * The namespace that occurs most often, the first by name on a tie;
 * undefined for none. Where most of an environment's objects live names
 * its namespace when nothing says it outright.
 */
export function mostCommonNamespace(
  namespaces: readonly string[],
): string | undefined {
  const counts = new Map<string, number>();
  for (const namespace of namespaces)
    counts.set(namespace, (counts.get(namespace) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([namespace]) => namespace)[0];
}
