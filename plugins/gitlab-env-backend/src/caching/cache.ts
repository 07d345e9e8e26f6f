import { failure } from '../errors';
import {
  allowManyListeners,
  deadlineSignal,
  whenAborted,
} from '../transport/deadline';

interface Entry<T> {
  promise: Promise<T>;
  /** When the settled value stops being served; Infinity while in flight. */
  expiresAt: number;
  settled: boolean;
  /** Ends the load: aborted when every reader has gone. */
  controller: AbortController;
  /** Readers still waiting that can leave (they passed a signal). */
  waiters: number;
  /** A reader without a signal waits for good: the load is never abandoned. */
  pinned: boolean;
}

export interface CacheOptions {
  ttlMs: number;
  now?: () => number;
  /** How long a failure is kept: 0 forgets it at once. Default 0. */
  failureTtlMs?: (error: unknown) => number;
  /** How long a value is kept; default ttlMs. */
  valueTtlMs?: (value: unknown) => number;
  /**
   * Every load ends by then, settled or not: a load that ignores its signal
   * is cut off, so no never-settling promise is ever shared.
   */
  deadlineMs?: number;
}

function stopped(): Error {
  return failure(
    'UPSTREAM_TIMEOUT',
    'The read was stopped: it reached its deadline (gitlabEnv.requestDeadlineMs).',
    {
      hint: 'Try again later; if it persists, narrow the read with the gitlab-env/label-selector annotation or raise gitlabEnv.requestDeadlineMs.',
    },
  );
}

/** The failure a caller meets when its signal ends before its answer came. */
export function callerLeft(): Error {
  return failure(
    'UPSTREAM_TIMEOUT',
    'The request was stopped before the read finished: it reached its deadline or its caller left.',
  );
}

/**
 * A short-lived cache that also coalesces: callers asking for a key while
 * it loads share the one in-flight load, so fifty people opening the same
 * page at once cost one round of upstream reads.
 *
 * Loads are bounded: each gets a signal that ends at `deadlineMs` or when
 * every reader that can leave has left (a closed browser tab), and the
 * entry settles by its deadline even if the load ignores that signal.
 * Outcomes are kept as long as the options say: values for the TTL (or
 * less, e.g. a partial answer), definitive failures for the TTL, transient
 * ones for seconds.
 */
export class CoalescingCache {
  private readonly entries = new Map<string, Entry<unknown>>();
  /** No entry expires before then: until then a load need not walk them all. */
  private soonestExpiry = Infinity;
  private readonly now: () => number;

  constructor(private readonly options: CacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Whether a key is loading or holds a value still served. */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return !!entry && entry.expiresAt > this.now();
  }

  /**
   * Drops what a key holds, so the next reader loads again: a write changed
   * what it describes. A load under way keeps serving those who joined it.
   */
  forget(key: string) {
    this.entries.delete(key);
  }

  getOrLoad<T>(
    key: string,
    load: (signal: AbortSignal) => Promise<T>,
    options: { ttlMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    let entry = this.entries.get(key) as Entry<T> | undefined;
    if (!entry || entry.expiresAt <= this.now()) {
      // Nobody would wait for it: start nothing.
      if (options.signal?.aborted) return Promise.reject(callerLeft());
      entry = this.start(key, load, options.ttlMs);
    }
    return this.join(key, entry, options.signal);
  }

  private start<T>(
    key: string,
    load: (signal: AbortSignal) => Promise<T>,
    ttlMs?: number,
  ): Entry<T> {
    const controller = new AbortController();
    const { deadlineMs } = this.options;
    allowManyListeners(controller.signal);
    const deadline =
      deadlineMs === undefined
        ? undefined
        : deadlineSignal(deadlineMs, [controller.signal]);
    const signal = deadline?.signal ?? controller.signal;
    let onDeadline: (() => void) | undefined;
    const cutOff = new Promise<never>((_, reject) => {
      if (!deadline) return;
      onDeadline = () => reject(stopped());
      signal.addEventListener('abort', onDeadline, { once: true });
    });
    const entry: Entry<T> = {
      promise: Promise.race([
        Promise.resolve().then(() => load(signal)),
        cutOff,
      ]),
      expiresAt: Infinity,
      settled: false,
      controller,
      waiters: 0,
      pinned: false,
    };
    this.entries.set(key, entry);
    // Settled: neither the deadline's timer nor anything that still holds
    // the load's signal (an upstream request's closure) holds the value
    // through the cut-off's listener.
    entry.promise
      .finally(() => {
        deadline?.dispose();
        if (onDeadline) signal.removeEventListener('abort', onDeadline);
      })
      .catch(() => undefined);
    entry.promise.then(
      value => {
        entry.settled = true;
        const keep =
          ttlMs ?? this.options.valueTtlMs?.(value) ?? this.options.ttlMs;
        this.settle(key, entry, keep);
      },
      error => {
        entry.settled = true;
        this.settle(key, entry, this.options.failureTtlMs?.(error) ?? 0);
      },
    );
    this.evictExpired();
    return entry;
  }

  private settle(key: string, entry: Entry<unknown>, keepMs: number) {
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    if (keepMs <= 0) {
      forget();
      return;
    }
    entry.expiresAt = this.now() + keepMs;
    this.soonestExpiry = Math.min(this.soonestExpiry, entry.expiresAt);
    // Dropped when it expires, not when the next load happens to start: a
    // key nobody asks for again must not hold its value (thousands of
    // objects) for good.
    // A timer may fire a little before the clock says the value expired
    // (timers and Date.now keep different clocks): then wait the rest.
    const expire = () => {
      const left = entry.expiresAt - this.now();
      if (left > 0) setTimeout(expire, left).unref?.();
      else forget();
    };
    setTimeout(expire, keepMs).unref?.();
  }

  /** The entry's outcome for one reader, who may leave early through `signal`. */
  private join<T>(
    key: string,
    entry: Entry<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (entry.settled) return entry.promise;
    if (!signal) {
      entry.pinned = true;
      return entry.promise;
    }
    if (signal.aborted) return Promise.reject(callerLeft());
    entry.waiters += 1;
    return untilLeft(entry.promise, signal, () => {
      entry.waiters -= 1;
      // A caller past its own deadline leaves the load to its own: the
      // next viewer may still get its answer. One whose client left
      // wanted nothing more.
      const timedOut =
        (signal.reason as Error | undefined)?.name === 'TimeoutError';
      if (entry.waiters === 0 && !timedOut && !entry.pinned && !entry.settled) {
        // Nobody wants the answer any more: stop the upstream work.
        entry.controller.abort();
        if (this.entries.get(key) === entry) this.entries.delete(key);
      }
    });
  }

  /** Each load starts with it: a walk of every entry only once one may have expired. */
  private evictExpired() {
    const now = this.now();
    if (now < this.soonestExpiry) return;
    this.soonestExpiry = Infinity;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
      else if (entry.expiresAt < this.soonestExpiry)
        this.soonestExpiry = entry.expiresAt;
    }
  }
}

/**
 * `promise`'s outcome, or callerLeft() as soon as `signal` ends (then
 * `onLeave` runs): a caller stops waiting without stopping the work.
 */
export function untilLeft<T>(
  promise: Promise<T>,
  signal?: AbortSignal,
  onLeave?: () => void,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(callerLeft());
  return new Promise<T>((resolve, reject) => {
    const stop = whenAborted(signal, () => {
      reject(callerLeft());
      onLeave?.();
    });
    promise.then(
      value => {
        stop();
        resolve(value);
      },
      error => {
        stop();
        reject(error);
      },
    );
  });
}
