/** Values unique to each object version: pooling them would only fill the pool. */
function isUniqueKey(key: string): boolean {
  // Compared, not looked up: it is asked for every string value walked.
  return key === 'uid' || key === 'resourceVersion';
}

/** Longer values (messages, images with digests) repeat less and are left alone. */
const MAX_POOLED_LENGTH = 64;
/**
 * V8's JSON.parse already keeps one copy of string values this short: it
 * internalizes them (kMaxInternalizedStringValueLength in
 * src/json/json-parser.h), as it does keys. 200,000 parsed `{"a": v}` hold
 * 40 bytes each with a 10-character v repeated, 72 with an 11-character one.
 */
const MAX_SHARED_BY_PARSE = 10;

/**
 * One copy of each short string value across the objects informers keep.
 * JSON.parse gives every value longer than MAX_SHARED_BY_PARSE its own
 * string: a namespace, a timestamp, a label or a condition's reason is
 * held once per object that has it, about half the memory of an
 * environment's short strings. The pool is
 * bounded: when full it starts again (values already pooled stay shared).
 */
export class StringPool {
  private readonly values = new Map<string, string>();

  constructor(private readonly maxEntries = 50_000) {}

  get size(): number {
    return this.values.size;
  }

  has(value: string): boolean {
    return this.values.has(value);
  }

  private pooled(value: string): string {
    const held = this.values.get(value);
    if (held !== undefined) return held;
    if (this.values.size >= this.maxEntries) this.values.clear();
    this.values.set(value, value);
    return value;
  }

  /**
   * The pool's copy of a string value (of the property `key`; none for an
   * array's element), or undefined for a value it leaves alone: too short,
   * too long, or unique to its object's version. Undefined rather than the
   * value, so a walk writes back only what it pools.
   */
  shared(value: string, key?: string): string | undefined {
    return value.length > MAX_SHARED_BY_PARSE &&
      value.length <= MAX_POOLED_LENGTH &&
      (key === undefined || !isUniqueKey(key))
      ? this.pooled(value)
      : undefined;
  }

  /**
   * Replaces the short string values of an object the caller owns (a
   * parsed answer, checked for depth already) with their pooled copies.
   * Keys need nothing: V8 keeps one copy of each property name. What is
   * walked anyway can pool as it goes instead (redactSecretsDeep).
   */
  internValues(object: unknown): void {
    // No array of keys per object: it walks every object an informer
    // keeps, so what it allocates is what the collector pays for.
    const stack: unknown[] = [object];
    while (stack.length > 0) {
      const current = stack.pop();
      if (typeof current !== 'object' || current === null) continue;
      if (Array.isArray(current)) {
        for (let i = 0; i < current.length; i++) {
          const value = current[i];
          if (typeof value === 'string') {
            const shared = this.shared(value);
            if (shared !== undefined) current[i] = shared;
          } else if (typeof value === 'object' && value !== null)
            stack.push(value);
        }
        continue;
      }
      const record = current as Record<string, unknown>;
      // eslint-disable-next-line guard-for-in
      for (const key in record) {
        const value = record[key];
        if (typeof value === 'string') {
          const shared = this.shared(value, key);
          if (shared !== undefined) record[key] = shared;
        } else if (typeof value === 'object' && value !== null)
          stack.push(value);
      }
    }
  }
}

/** The pool every informer of the process shares: environments of one cluster repeat the same values. */
export const informerStrings = new StringPool();
