import {
  DependencyList,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

/** What a cursor-paged route answers: the cursor of the page after it, if any. */
export interface CursorPage {
  nextCursor?: string;
}

export interface CursorPages<P extends CursorPage, T> {
  /**
   * The newest page read (its `nextCursor` and what the whole list shares);
   * undefined before the first page arrives or after it failed.
   */
  response?: P;
  /** The items of every page read, oldest page last. */
  items: T[];
  /** A page is being read (the first one or an older one). */
  loading: boolean;
  /** Why the last read failed; undefined after a read succeeds. */
  error?: Error;
  /** The read that failed was an older page (the list above it stays). */
  olderFailed: boolean;
  /** Reads the page after the newest one read, unless a read is under way. */
  loadOlder: () => void;
  /** Reads again the page that failed: the same cursor, or the first page. */
  retry: () => void;
  /** Reads the first page again (after a write), the list staying until it arrives. */
  reload: () => void;
}

interface State<P, T> {
  response?: P;
  items: T[];
  loading: boolean;
  error?: Error;
  /** The cursor whose read failed; undefined for the first page. */
  failedCursor?: string;
  olderFailed: boolean;
}

/**
 * A list read page by page through a cursor: the first page when `deps`
 * change, older ones on demand, appended. Only one read is under way at a
 * time: reading the first page aborts whatever was in flight, and an answer
 * that arrives after its read was superseded is dropped even if `load`
 * ignored the signal, so a page of the previous query never joins the list
 * of the new one.
 *
 * `load` and `itemsOf` are read at call time; `deps` say when the query
 * changed.
 */
export function useCursorPages<P extends CursorPage, T>(
  load: (cursor: string | undefined, signal: AbortSignal) => Promise<P>,
  itemsOf: (page: P) => readonly T[],
  deps: DependencyList,
): CursorPages<P, T> {
  const [state, setState] = useState<State<P, T>>({
    items: [],
    loading: true,
    olderFailed: false,
  });
  const calls = useRef({ load, itemsOf });
  calls.current = { load, itemsOf };
  const latest = useRef(state);
  latest.current = state;
  const inFlight = useRef<AbortController>();

  const read = useCallback(
    (cursor: string | undefined, { newQuery = false } = {}) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setState(previous => ({
        ...previous,
        loading: true,
        error: undefined,
        olderFailed: false,
      }));
      const settle = (next: (previous: State<P, T>) => State<P, T>) => {
        if (controller.signal.aborted) return;
        inFlight.current = undefined;
        setState(next);
      };
      calls.current.load(cursor, controller.signal).then(
        page =>
          settle(previous => ({
            response: page,
            items:
              cursor === undefined
                ? [...calls.current.itemsOf(page)]
                : [...previous.items, ...calls.current.itemsOf(page)],
            loading: false,
            olderFailed: false,
          })),
        (error: Error) =>
          settle(previous =>
            cursor === undefined && newQuery
              ? // The list shown was of the previous query: it would mislead.
                { items: [], loading: false, error, olderFailed: false }
              : {
                  ...previous,
                  loading: false,
                  error,
                  failedCursor: cursor,
                  olderFailed: cursor !== undefined,
                },
          ),
      );
    },
    [],
  );

  useEffect(() => {
    read(undefined, { newQuery: true });
    return () => inFlight.current?.abort();
    // The caller's deps say when the query changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  const loadOlder = useCallback(() => {
    const { response, loading } = latest.current;
    if (loading || inFlight.current || !response?.nextCursor) return;
    read(response.nextCursor);
  }, [read]);
  const retry = useCallback(() => {
    const { error, failedCursor, response } = latest.current;
    if (!error) return;
    read(response ? failedCursor : undefined);
  }, [read]);
  const reload = useCallback(() => read(undefined), [read]);

  return {
    response: state.response,
    items: state.items,
    loading: state.loading,
    error: state.error,
    olderFailed: state.olderFailed,
    loadOlder,
    retry,
    reload,
  };
}
