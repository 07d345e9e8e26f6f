import { GraphQLError } from 'graphql';

/** GraphQL cursor connections as GitLab serves them (keyset cursors, at most 100 per page). */

export const MAX_PAGE_SIZE = 100;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export function encodeCursor(id: number): string {
  return Buffer.from(JSON.stringify({ id: String(id) })).toString('base64');
}

function decodeCursor(cursor: string): number {
  try {
    const id = Number(
      JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')).id,
    );
    if (Number.isFinite(id)) return id;
  } catch {
    // fall through
  }
  throw new GraphQLError('Please provide a valid cursor');
}

export function connection<T, N>(
  items: T[],
  idOf: (item: T) => number,
  toNode: (item: T) => N,
  args: ConnectionArgs,
) {
  // Keyset on the list's own order: after the item the cursor names, or,
  // when it is gone, after its id (lists in ascending id order).
  let window = items;
  if (args.after) {
    const after = decodeCursor(args.after);
    const at = window.findIndex(i => idOf(i) === after);
    window =
      at >= 0 ? window.slice(at + 1) : window.filter(i => idOf(i) > after);
  }
  if (args.before) {
    const before = decodeCursor(args.before);
    const at = window.findIndex(i => idOf(i) === before);
    window =
      at >= 0 ? window.slice(0, at) : window.filter(i => idOf(i) < before);
  }
  const beforeWindow = items.length - window.length;
  const first = args.first ?? (args.last ? undefined : MAX_PAGE_SIZE);
  let page = window;
  if (first !== undefined) {
    page = page.slice(0, Math.max(0, Math.min(first, MAX_PAGE_SIZE)));
  }
  if (args.last !== undefined && args.last !== null) {
    page = page.slice(
      Math.max(0, page.length - Math.min(args.last, MAX_PAGE_SIZE)),
    );
  }
  const edges = page.map(item => ({
    cursor: encodeCursor(idOf(item)),
    node: toNode(item),
  }));
  return {
    count: items.length,
    nodes: edges.map(e => e.node),
    edges,
    pageInfo: {
      hasNextPage:
        window.length > 0 && page.length > 0
          ? idOf(page[page.length - 1]) !== idOf(window[window.length - 1])
          : false,
      hasPreviousPage:
        beforeWindow > 0 ||
        (page.length > 0 && idOf(page[0]) !== idOf(window[0])),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
