/** Upstream JSON is untrusted: check an object's shape before reading it. */
export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The API server's Status message, cut to a length a page can show. */
export function statusMessage(body: unknown): string | undefined {
  if (!isRecord(body) || typeof body.message !== 'string') return undefined;
  return body.message.slice(0, 500);
}

/**
 * How deep one Kubernetes object may nest. Real objects stay far below it
 * (a Pod with every field set is about 12 levels); deeper ones would overflow
 * the recursive code after parsing (JSON.stringify, the graph engine).
 */
export const MAX_JSON_DEPTH = 100;
