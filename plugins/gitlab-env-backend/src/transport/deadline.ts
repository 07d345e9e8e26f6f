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

/** Each signal's callbacks (see whenAborted), behind one listener of its own. */
const abortCallbacks = new WeakMap<
  AbortSignal,
  { callbacks: Set<() => void>; listener: () => void }
>();

/**
 * Calls `onAbort` once when `signal` aborts (the caller checks `aborted`
 * first); the answer stops listening, and the signal keeps no listener
 * once none is left. Not an 'abort' listener each: Node's EventTarget adds
 * and removes a listener in time linear in those it has, and a stream's
 * signal (the overview's) is listened to by every read under it.
 */
export function whenAborted(
  signal: AbortSignal,
  onAbort: () => void,
): () => void {
  let held = abortCallbacks.get(signal);
  if (!held) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      abortCallbacks.delete(signal);
      for (const callback of [...callbacks]) {
        try {
          callback();
        } catch (error) {
          // As a throwing listener's: the others still run.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    };
    held = { callbacks, listener };
    abortCallbacks.set(signal, held);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = held;
  // Its own identity: the same function may listen twice.
  const callback = () => onAbort();
  callbacks.add(callback);
  return () => {
    if (!callbacks.delete(callback) || callbacks.size > 0) return;
    if (abortCallbacks.get(signal)?.listener !== listener) return;
    abortCallbacks.delete(signal);
    signal.removeEventListener('abort', listener);
  };
}

export function timeoutReason(ms: number): DOMException {
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
/**
 * Lets any number of listeners wait on `signal` (every upstream request of
 * a load listens to its signal) without Node's leak warning. Infinity, not
 * 0: after setMaxListeners(0, signal), Node 20's getMaxListeners(signal)
 * throws, and fetch asks it of every request's signal (undici's Request
 * constructor, which catches it): an error and its stack per request.
 */
export function allowManyListeners(signal: AbortSignal): void {
  setMaxListeners(Infinity, signal);
}

export function deadlineSignal(
  ms: number,
  sources: Array<AbortSignal | undefined> = [],
): Deadline {
  const controller = new AbortController();
  const { signal } = controller;
  allowManyListeners(signal);
  const listening: Array<() => void> = [];
  let timer: ReturnType<typeof setTimeout> | undefined = undefined;
  const dispose = () => {
    clearTimeout(timer);
    for (const stop of listening.splice(0)) stop();
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
    listening.push(whenAborted(source, () => abort(source.reason)));
  }
  return { signal, dispose };
}
