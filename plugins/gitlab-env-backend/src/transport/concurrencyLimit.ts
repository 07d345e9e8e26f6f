import pLimit from 'p-limit';

/** Runs `fn` when a slot is free; at most n run at once. */
export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * p-limit's limiter that holds no result once it is handed over. p-limit's
 * queue (yocto-queue 0.1) keeps its last node after running it, and with it
 * the call's promise and result: for a limiter that lives as long as the
 * backend (one per GitLab instance and agent), the last page of objects
 * each read, held for good. Results pass through a box emptied once read.
 */
export function concurrencyLimit(concurrency: number): Limit {
  const limit = pLimit(concurrency);
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    const box: { value?: T } = {};
    await limit(async () => {
      box.value = await fn();
    });
    const value = box.value as T;
    delete box.value;
    return value;
  };
}
