import {
  CacheService,
  LoggerService,
  RootConfigService,
} from '@backstage/backend-plugin-api';
import { JsonValue } from '@backstage/types';
import { CoalescingCache } from './cache';

/**
 * Bumped when a cached value's shape changes, so replicas of two versions
 * behind one store never read each other's values.
 */
const KEY_VERSION = 'v1';

/** How long a read may wait for the store before it reads upstream instead. */
export const DEFAULT_STORE_TIMEOUT_MS = 1000;

/** A store that keeps failing is logged at most this often. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The store behind the process's own cache: Backstage's CacheService when
 * `backend.cache.store` names one that replicas share (redis, valkey,
 * memcache, ...). Not with the default memory store: it lives in the same
 * process, so it would share nothing and keep a second, serialized copy of
 * every read (the README gives the memory measured either way).
 */
export function sharedStoreOf(
  config: RootConfigService,
  cache: CacheService,
): CacheService | undefined {
  const store = config.getOptionalString('backend.cache.store') ?? 'memory';
  return store === 'memory' ? undefined : cache;
}

/**
 * The read cache in two tiers. In front, the process's CoalescingCache:
 * concurrent callers share one in-flight load, and settled values are
 * served without a round trip. Behind it, when `backend.cache` configures
 * Redis, Valkey, memcache or another shared store (see sharedStoreOf),
 * Backstage's CacheService, which replicas share and which outlives a
 * restart: a load asks the store first and reads upstream only when the
 * store has nothing.
 *
 * Only values are shared; failures stay in the process that met them (a
 * typed error does not survive JSON), and in-flight loads never leave it.
 * A store that is down or slow costs at most `storeTimeoutMs` per load and
 * is logged, never fails a read. A replica that picks a value up just
 * before it expires in the store keeps it for its own TTL, so a value can
 * be served up to twice the TTL after it was read upstream.
 */
export class SharedReadCache {
  private failureLoggedAt = -Infinity;

  constructor(
    private readonly local: CoalescingCache,
    private readonly store: CacheService | undefined,
    private readonly options: {
      defaultTtlMs: number;
      /** How long a value is kept in the store (a partial read briefly); default defaultTtlMs. */
      valueTtlMs?: (value: unknown) => number;
      logger: LoggerService;
      storeTimeoutMs?: number;
    },
  ) {}

  /**
   * The store alone, for what this process keeps elsewhere (the planner's
   * informers, the instance check): values other replicas put there, or
   * undefined; writes are not awaited. Undefined without a shared store.
   */
  sharedStore():
    | {
        get<T>(key: string): Promise<T | undefined>;
        set(key: string, value: unknown, ttlMs: number): void;
        delete(key: string): void;
      }
    | undefined {
    const store = this.store;
    if (!store) return undefined;
    return {
      get: async <T>(key: string) =>
        (await this.fromStore(() => store.get(`${KEY_VERSION}|${key}`))) as
          | T
          | undefined,
      set: (key, value, ttl) =>
        void this.fromStore(() =>
          store.set(`${KEY_VERSION}|${key}`, value as JsonValue, { ttl }),
        ),
      delete: key =>
        void this.fromStore(() => store.delete(`${KEY_VERSION}|${key}`)),
    };
  }

  /** Whether this process is loading a key or holds a value still served. */
  has(key: string): boolean {
    return this.local.has(key);
  }

  /** Drops a key here and in the store (not awaited: a store that is down is logged). */
  forget(key: string) {
    this.local.forget(key);
    const store = this.store;
    if (store) void this.fromStore(() => store.delete(`${KEY_VERSION}|${key}`));
  }

  getOrLoad<T>(
    key: string,
    load: (signal: AbortSignal) => Promise<T>,
    options: { ttlMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const store = this.store;
    if (!store) return this.local.getOrLoad(key, load, options);
    const storeKey = `${KEY_VERSION}|${key}`;
    return this.local.getOrLoad(
      key,
      async signal => {
        const stored = await this.fromStore(() => store.get(storeKey));
        if (stored !== undefined) return stored as T;
        const value = await load(signal);
        const ttl =
          options.ttlMs ??
          this.options.valueTtlMs?.(value) ??
          this.options.defaultTtlMs;
        // Not awaited: the caller has its value; the store catches up.
        void this.fromStore(() =>
          store.set(storeKey, value as unknown as JsonValue, { ttl }),
        );
        return value;
      },
      options,
    );
  }

  /** The store's answer, or undefined when it fails or is too slow. */
  private async fromStore<R>(
    operation: () => Promise<R>,
  ): Promise<R | undefined> {
    const timeoutMs = this.options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        operation(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      this.logStoreFailure(String(error));
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private logStoreFailure(reason: string) {
    // A store that is down would otherwise log on every read.
    const now = Date.now();
    if (now - this.failureLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.failureLoggedAt = now;
    this.options.logger.warn(
      `The shared cache (backend.cache) failed, so reads go upstream until it answers again: ${reason}`,
    );
  }
}
