interface Entry<T> {
  promise: Promise<T>;
  /** When the settled value stops being served; Infinity while in flight. */
  expiresAt: number;
}

/**
 * A short-lived cache that also coalesces: callers asking for a key while
 * it loads share the one in-flight promise, so fifty people opening the same
 * page at once cost one round of upstream reads. Transient failures are not
 * kept; failures `keepFailure` calls definitive (a project that does not
 * exist, an agent that is not shared) are, so a page full of them does not
 * ask GitLab again on every load.
 */
export class CoalescingCache {
  private readonly entries = new Map<string, Entry<unknown>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly keepFailure: (error: unknown) => boolean = () => false,
  ) {}

  /** Whether a key is loading or holds a value still served. */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return !!entry && entry.expiresAt > this.now();
  }

  getOrLoad<T>(
    key: string,
    load: () => Promise<T>,
    ttlMs = this.ttlMs,
  ): Promise<T> {
    const existing = this.entries.get(key);
    if (existing && existing.expiresAt > this.now()) {
      return existing.promise as Promise<T>;
    }
    const entry: Entry<T> = { promise: load(), expiresAt: Infinity };
    this.entries.set(key, entry);
    entry.promise.then(
      () => {
        entry.expiresAt = this.now() + ttlMs;
      },
      error => {
        if (this.keepFailure(error)) entry.expiresAt = this.now() + ttlMs;
        else if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evictExpired();
    return entry.promise;
  }

  private evictExpired() {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
