import { FaultKnobs } from '../faults';

/**
 * Answers no healthy GitLab or Kubernetes sends, but a buggy server, an
 * aggregated API or a proxy can: a client must survive them. Applied to a
 * JSON body just before it is written (see sendJson), so every surface and
 * route gets them alike. Each returns the body's text, or undefined when the
 * fault does not apply to this body.
 */

/** Continue tokens and cursors of the loop; requests carrying one are served the first page again. */
export const LOOP_TOKENS = ['loop-A', 'loop-B'] as const;

export function isLoopToken(value: unknown): boolean {
  return (LOOP_TOKENS as readonly unknown[]).includes(value);
}

function nextLoopToken(current: string | null | undefined): string {
  return current === LOOP_TOKENS[0] ? LOOP_TOKENS[1] : LOOP_TOKENS[0];
}

type Json = Record<string, any>;

function isList(body: unknown): body is Json & { items: Json[] } {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as Json).items) &&
    typeof (body as Json).kind === 'string' &&
    (body as Json).kind.endsWith('List')
  );
}

/** Continue tokens of an oversized list: the offset of the next page. */
const OVERSIZED_TOKEN = /^oversized-(\d+)$/;

/** Tokens the API server never issued: a request carrying one is answered from the fault's own list. */
export function isFaultToken(value: unknown): boolean {
  return (
    isLoopToken(value) ||
    (typeof value === 'string' && OVERSIZED_TOKEN.test(value))
  );
}

/** What the request asked for, as the faults need it. */
export interface FaultedRequest {
  surface: 'graphql' | 'rest' | 'kas' | undefined;
  /** The continue token (KAS) or `after` cursor (GraphQL) the client sent. */
  token?: string | null;
  /** The page size a list asked for (`limit`), 0 for all. */
  limit?: number;
}

const DEEP_MARKER = '__simulator_deep_object__';

function deepText(depth: number): string {
  return `${'{"x":'.repeat(depth)}{}${'}'.repeat(depth)}`;
}

function listFaults(
  list: Json & { items: Json[] },
  faults: FaultKnobs,
  request: FaultedRequest,
) {
  const [first] = list.items;
  if (faults.loopingContinue) {
    list.metadata = {
      ...list.metadata,
      continue: nextLoopToken(request.token),
    };
  }
  if (faults.secretsInList && list.kind === 'SecretList') {
    list.kind = 'List';
    list.items = list.items.map(item => ({
      apiVersion: 'v1',
      kind: 'Secret',
      ...item,
    }));
  }
  if (first && faults.oversizedListItems > 0 && list.kind === 'PodList') {
    // A namespace of many Pods, paginated as the API server would: the real
    // items, then the copies, `limit` at a time behind oversized-<offset> tokens.
    const all = [
      ...list.items,
      ...Array.from({ length: faults.oversizedListItems }, (_, i) => ({
        ...first,
        metadata: {
          ...first.metadata,
          name: `${first.metadata?.name}-copy-${i}`,
          uid: `${first.metadata?.uid}-copy-${i}`,
        },
      })),
    ];
    const offset = Number(
      OVERSIZED_TOKEN.exec(String(request.token))?.[1] ?? 0,
    );
    const end = request.limit ? offset + request.limit : all.length;
    list.items = all.slice(offset, end);
    list.metadata = {
      ...list.metadata,
      continue: end < all.length ? `oversized-${end}` : undefined,
      remainingItemCount: end < all.length ? all.length - end : undefined,
    };
  }
  if (first && faults.duplicateUids) {
    const uid = list.items[0].metadata?.uid;
    list.items = list.items.map(item => ({
      ...item,
      metadata: { ...item.metadata, uid },
    }));
  }
  if (first && faults.malformedMetadata) {
    list.items[0] = {
      ...list.items[0],
      metadata: { ...list.items[0].metadata, name: 12345, labels: 'not-a-map' },
    };
  }
  if (first && faults.deepObjectDepth > 0) {
    list.items.push(DEEP_MARKER as unknown as Json);
  }
}

function environmentsConnection(data: Json | undefined): Json | undefined {
  const project = data?.project ?? data?.projects?.nodes?.[0];
  return project?.environments;
}

/** The body's text with the faults that apply to it, or undefined when none does. */
export function applyDataFaults(
  body: unknown,
  faults: FaultKnobs,
  request: FaultedRequest,
): string | undefined {
  if (request.surface === 'kas' && isList(body)) {
    const before = JSON.stringify(body);
    listFaults(body, faults, request);
    const text = JSON.stringify(body);
    if (text === before) return undefined;
    const marker = JSON.stringify(DEEP_MARKER);
    if (!text.includes(marker)) return text;
    // Built as text: JSON.stringify of the object itself would overflow the stack.
    const [first] = body.items;
    const deep = `{"apiVersion":${JSON.stringify(
      first.apiVersion ?? 'v1',
    )},"metadata":{"name":"deep-object","namespace":${JSON.stringify(
      first.metadata?.namespace ?? 'default',
    )},"uid":"deep-object-uid"},"spec":${deepText(faults.deepObjectDepth)}}`;
    return text.replace(marker, () => deep);
  }
  if (request.surface === 'graphql' && faults.loopingCursor) {
    const connection = environmentsConnection((body as Json | undefined)?.data);
    if (!connection?.pageInfo) return undefined;
    connection.pageInfo = {
      ...connection.pageInfo,
      hasNextPage: true,
      endCursor: nextLoopToken(request.token),
    };
    return JSON.stringify(body);
  }
  return undefined;
}

export function anyDataFault(faults: FaultKnobs): boolean {
  return (
    faults.loopingContinue ||
    faults.loopingCursor ||
    faults.deepObjectDepth > 0 ||
    faults.oversizedListItems > 0 ||
    faults.secretsInList ||
    faults.duplicateUids ||
    faults.malformedMetadata
  );
}
