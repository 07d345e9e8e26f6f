/** Values unique to each object version: pooling them would only fill the pool. */
const UNIQUE_KEYS = new Set(['uid', 'resourceVersion']);

/** Longer values (messages, images with digests) repeat less and are left alone. */
const MAX_POOLED_LENGTH = 64;

/**
 * One copy of each short string value across the objects informers keep.
 * JSON.parse gives every value its own string: a namespace, a timestamp,
 * a label or a condition's reason is held once per object that has it,
 * about half the memory of an environment's short strings. The pool is
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
   * Replaces the short string values of an object the caller owns (a
   * parsed answer, checked for depth already) with their pooled copies.
   * Keys need nothing: V8 keeps one copy of each property name.
   */
  internValues(object: unknown): void {
    const stack: unknown[] = [object];
    while (stack.length > 0) {
      const current = stack.pop() as Record<string, unknown> | unknown[];
      const keys = Array.isArray(current)
        ? current.keys()
        : Object.keys(current);
      for (const key of keys) {
        const value = (current as Record<string | number, unknown>)[key];
        if (typeof value === 'string') {
          if (
            value.length <= MAX_POOLED_LENGTH &&
            !UNIQUE_KEYS.has(key as string)
          )
            (current as Record<string | number, unknown>)[key] =
              this.pooled(value);
        } else if (typeof value === 'object' && value !== null) {
          stack.push(value);
        }
      }
    }
  }
}

/** The pool every informer of the process shares: environments of one cluster repeat the same values. */
export const informerStrings = new StringPool();
