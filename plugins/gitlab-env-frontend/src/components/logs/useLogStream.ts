import { useEffect, useRef, useState } from 'react';
import { PodLogsHandlers } from '../../api';
import { LogLine, LogLineStore } from './LogLineStore';

/** What one log stream reads: a pod's container, and how. */
export interface LogSource {
  pod: string;
  /** The pod's namespace, when the environment spans several. */
  namespace?: string;
  container: string;
}

/** Reads one source's text until it ends or the signal aborts. */
export type OpenLogStream = (
  source: LogSource,
  handlers: PodLogsHandlers,
  signal: AbortSignal,
) => Promise<void>;

export interface LogStreamState {
  lines: readonly LogLine[];
  /** Lines dropped from the page to stay within the line limit. */
  dropped: number;
  /** Set when the backend capped the tail it returned, to this many lines. */
  tailCap?: number;
  /** Streams still open. */
  open: number;
  error?: Error;
}

const EMPTY: LogStreamState = { lines: [], dropped: 0, open: 0 };

/**
 * Streams the logs of the sources into a store and renders at most once per
 * animation frame, however fast lines arrive: a follow at thousands of lines
 * a second costs one render a frame. `key` names everything the streams
 * depend on; a new key starts over.
 */
export function useLogStream(
  sources: readonly LogSource[],
  open: OpenLogStream,
  key: string,
  options: { maxLines: number; blockSize: number },
): LogStreamState {
  const [state, setState] = useState<LogStreamState>(EMPTY);
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    const store = new LogLineStore(options.maxLines, options.blockSize);
    const controller = new AbortController();
    let pending: number | undefined;
    let rendered = -1;
    let openCount = sources.length;
    let tailCap: number | undefined;
    let error: Error | undefined;

    const flush = () => {
      pending = undefined;
      if (controller.signal.aborted) return;
      const changed = store.version !== rendered;
      rendered = store.version;
      setState(previous => ({
        lines: changed ? store.snapshot() : previous.lines,
        dropped: store.dropped,
        tailCap,
        open: openCount,
        error,
      }));
    };
    const schedule = () => {
      if (pending === undefined) pending = nextFrame(flush);
    };

    setState({ ...EMPTY, open: openCount });
    sources.forEach(source => {
      const name = sources.length > 1 ? source.pod : '';
      const handlers: PodLogsHandlers = {
        onOpen: info => {
          if (info.tailCap === undefined) return;
          tailCap = Math.max(tailCap ?? 0, info.tailCap);
          schedule();
        },
        onText: text => {
          store.append(text, name);
          schedule();
        },
      };
      openRef
        .current(source, handlers, controller.signal)
        .catch(e => {
          if (!controller.signal.aborted) error = e as Error;
        })
        .finally(() => {
          store.end(name);
          openCount -= 1;
          schedule();
        });
    });
    return () => {
      controller.abort();
      if (pending !== undefined) cancelFrame(pending);
    };
    // The key names the sources and every option of the streams.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return state;
}

// Hidden tabs get no animation frames; the store keeps what arrives until
// the tab shows again.
function nextFrame(callback: () => void): number {
  return typeof requestAnimationFrame === 'function'
    ? requestAnimationFrame(callback)
    : (setTimeout(callback, 16) as unknown as number);
}

function cancelFrame(handle: number) {
  if (typeof cancelAnimationFrame === 'function') cancelAnimationFrame(handle);
  else clearTimeout(handle);
}
