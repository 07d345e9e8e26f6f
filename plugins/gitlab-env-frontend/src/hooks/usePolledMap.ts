import { useCallback, useEffect, useRef, useState } from 'react';

/** One polled value: the last result stays while the next one loads. */
export interface Polled<T> {
  value?: T;
  error?: Error;
  /** True until the first result (value or error) arrives. */
  loading: boolean;
  /** True while a reload is in flight. */
  refreshing: boolean;
  /** When the last result arrived (ms since the epoch). */
  updatedAt?: number;
}

export interface PolledMapOptions {
  intervalMs: number;
  paused: boolean;
  /** How many keys load at once, so a page of environments does not flood the backend. */
  concurrency?: number;
}

const INITIAL: Polled<never> = { loading: true, refreshing: true };

/**
 * Loads one value per key, then reloads them all on an interval until
 * paused. Previous values stay on screen while reloading (no skeleton
 * flashes on refresh), and in-flight loads are aborted when the keys change
 * or the component unmounts. An interval that ends while loads are still in
 * flight starts none: a load slower than the interval (KAS looks for a
 * disconnected agent's tunnel for 20 s) would otherwise be aborted and
 * restarted forever, and never show.
 */
export function usePolledMap<T>(
  keys: readonly string[],
  load: (key: string, signal: AbortSignal) => Promise<T>,
  { intervalMs, paused, concurrency = 3 }: PolledMapOptions,
): { entries: ReadonlyMap<string, Polled<T>>; refresh: () => void } {
  const [entries, setEntries] = useState<ReadonlyMap<string, Polled<T>>>(
    new Map(),
  );
  const [tick, setTick] = useState(0);
  const inFlight = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const keysKey = keys.join('\n');

  useEffect(() => {
    if (paused) return undefined;
    const timer = setInterval(() => {
      if (inFlight.current === 0) setTick(t => t + 1);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [paused, intervalMs]);

  useEffect(() => {
    const controller = new AbortController();
    const pending = keysKey === '' ? [] : keysKey.split('\n');
    const update = (key: string, next: (prev: Polled<T>) => Polled<T>) => {
      if (controller.signal.aborted) return;
      setEntries(prev => {
        const copy = new Map(prev);
        copy.set(key, next(prev.get(key) ?? INITIAL));
        return copy;
      });
    };
    const loadOne = async (key: string) => {
      update(key, prev => ({ ...prev, refreshing: true }));
      inFlight.current += 1;
      try {
        const value = await loadRef.current(key, controller.signal);
        update(key, () => ({
          value,
          loading: false,
          refreshing: false,
          updatedAt: Date.now(),
        }));
      } catch (e) {
        const error = e instanceof Error ? e : new Error(String(e));
        update(key, prev => ({
          value: prev.value,
          error,
          loading: false,
          refreshing: false,
          updatedAt: Date.now(),
        }));
      } finally {
        inFlight.current -= 1;
      }
    };
    let next = 0;
    const worker = async () => {
      while (next < pending.length && !controller.signal.aborted) {
        await loadOne(pending[next++]);
      }
    };
    for (let i = 0; i < Math.min(concurrency, pending.length); i++) {
      worker();
    }
    return () => controller.abort();
  }, [keysKey, tick, concurrency]);

  const refresh = useCallback(() => setTick(t => t + 1), []);
  return { entries, refresh };
}
