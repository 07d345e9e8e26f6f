/** Upstream JSON is untrusted: check an object's shape before reading it. */
export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
