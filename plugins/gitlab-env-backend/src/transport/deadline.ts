import { setMaxListeners } from 'events';

/** A signal that ends at a deadline or with any of its sources, and can be let go early. */
export interface Deadline {
  signal: AbortSignal;
  /**
   * The work is over: stops the timer and leaves the sources, so nothing
   * the signal's listeners reference is held past it. Never aborts.
   */
  dispose(): void;
}

function timeoutReason(ms: number): DOMException {
  return new DOMException(
    `The operation was aborted due to timeout (${ms} ms)`,
    'TimeoutError',
  );
}

/**
 * A signal aborted when any source aborts (with its reason) or after `ms`
 * (with a `TimeoutError`, as AbortSignal.timeout's).
 *
 * Not `AbortSignal.any([...sources, AbortSignal.timeout(ms)])`: Node holds a
 * timeout signal inside `any` only weakly (nodejs/node#57736), so a garbage
 * collection before the deadline loses it: the deadline never comes, and
 * the combined signal, kept alive by its own abort listeners, holds
 * whatever they reference for good. Here the timer holds the controller
 * until it fires or `dispose` clears it. Unreferenced, like
 * AbortSignal.timeout, so it never keeps the process alive.
 */
export function deadlineSignal(
  ms: number,
  sources: Array<AbortSignal | undefined> = [],
): Deadline {
  const controller = new AbortController();
  const { signal } = controller;
  // Every upstream request of the work listens to it.
  setMaxListeners(0, signal);
  const listening: Array<[AbortSignal, () => void]> = [];
  let timer: ReturnType<typeof setTimeout> | undefined = undefined;
  const dispose = () => {
    clearTimeout(timer);
    for (const [source, onAbort] of listening.splice(0))
      source.removeEventListener('abort', onAbort);
  };
  const abort = (reason: unknown) => {
    dispose();
    controller.abort(reason);
  };
  timer = setTimeout(() => abort(timeoutReason(ms)), ms);
  timer.unref?.();
  for (const source of sources) {
    if (!source) continue;
    if (source.aborted) {
      abort(source.reason);
      return { signal, dispose };
    }
    const onAbort = () => abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    listening.push([source, onAbort]);
  }
  return { signal, dispose };
}
