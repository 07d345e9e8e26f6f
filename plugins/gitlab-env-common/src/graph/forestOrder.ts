import { ResourceNode } from '../types';

/** Ids in code unit order, as the engine orders roots and children. */
export function compareIds(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/** Parents first, depth first from the roots; what they miss (a broken patch) last, by id. */
export function forestOrder<N extends ResourceNode>(
  nodes: ReadonlyMap<string, N>,
  roots: readonly string[],
): N[] {
  const ordered: N[] = [];
  const seen = new Set<string>();
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const id = stack.pop()!;
    const node = nodes.get(id);
    if (!node || seen.has(id)) continue;
    seen.add(id);
    ordered.push(node);
    for (let c = node.childIds.length - 1; c >= 0; c--)
      stack.push(node.childIds[c]);
  }
  if (seen.size < nodes.size) {
    const rest = [...nodes.values()].filter(node => !seen.has(node.id));
    rest.sort((a, b) => compareIds(a.id, b.id));
    ordered.push(...rest);
  }
  return ordered;
}
