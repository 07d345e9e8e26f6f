import { act, renderHook, waitFor } from '@testing-library/react';
import { useCursorPages } from './useCursorPages';

interface Page {
  items: string[];
  nextCursor?: string;
}

/** A read the test answers when it wants to, recording what it was asked. */
interface Read {
  query: string;
  cursor?: string;
  signal: AbortSignal;
  answer: (page: Page) => void;
  fail: (error: Error) => void;
}

/**
 * A `load` whose reads wait for the test. Like a client that ignores its
 * signal, it never rejects on abort: only the hook can keep a late answer out.
 */
function deferredLoads() {
  const reads: Read[] = [];
  const loadFor =
    (query: string): Load =>
    (cursor, signal) =>
      new Promise<Page>((resolve, reject) =>
        reads.push({ query, cursor, signal, answer: resolve, fail: reject }),
      );
  return { reads, loadFor };
}

type Load = (cursor: string | undefined, signal: AbortSignal) => Promise<Page>;

function renderPages(loadFor: (query: string) => Load, query = 'a') {
  return renderHook(
    ({ q }: { q: string }) =>
      useCursorPages(loadFor(q), (page: Page) => page.items, [q]),
    { initialProps: { q: query } },
  );
}

describe('useCursorPages', () => {
  it('reads the first page, then older pages appended with the cursor of the newest one', async () => {
    const { reads, loadFor } = deferredLoads();
    const { result } = renderPages(loadFor);
    expect(result.current.loading).toBe(true);
    await act(async () => reads[0].answer({ items: ['a1'], nextCursor: 'c2' }));
    expect(result.current.items).toEqual(['a1']);
    expect(result.current.loading).toBe(false);

    act(() => result.current.loadOlder());
    // A second click while the page is on its way asks nothing more.
    act(() => result.current.loadOlder());
    expect(reads.map(r => r.cursor)).toEqual([undefined, 'c2']);
    await act(async () => reads[1].answer({ items: ['a2'], nextCursor: 'c3' }));
    expect(result.current.items).toEqual(['a1', 'a2']);
    expect(result.current.response?.nextCursor).toBe('c3');
  });

  it('drops an older page of the previous query, aborting its read, when the query changes', async () => {
    const { reads, loadFor } = deferredLoads();
    const { result, rerender } = renderPages(loadFor);
    await act(async () => reads[0].answer({ items: ['a1'], nextCursor: 'c2' }));
    act(() => result.current.loadOlder());
    const olderOfA = reads[1];

    rerender({ q: 'b' });
    expect(olderOfA.signal.aborted).toBe(true);
    const firstOfB = reads[2];
    expect(firstOfB).toMatchObject({ query: 'b', cursor: undefined });
    await act(async () => firstOfB.answer({ items: ['b1'] }));
    // The old query's page arrives late, after the new list: it stays out.
    await act(async () => olderOfA.answer({ items: ['a2'] }));
    expect(result.current.items).toEqual(['b1']);
    expect(result.current.loading).toBe(false);

    // Late before the new first page too: the new page replaces the list alone.
    act(() => rerender({ q: 'c' }));
    await act(async () => reads[3].answer({ items: ['c1'], nextCursor: 'c9' }));
    act(() => result.current.loadOlder());
    rerender({ q: 'd' });
    await act(async () => reads[4].answer({ items: ['c2'] }));
    expect(result.current.loading).toBe(true);
    await act(async () => reads[5].answer({ items: ['d1'] }));
    expect(result.current.items).toEqual(['d1']);
  });

  it('retries the older page that failed, with its own cursor, keeping the list above it', async () => {
    const { reads, loadFor } = deferredLoads();
    const { result } = renderPages(loadFor);
    await act(async () => reads[0].answer({ items: ['a1'], nextCursor: 'c2' }));
    act(() => result.current.loadOlder());
    await act(async () => reads[1].answer({ items: ['a2'], nextCursor: 'c3' }));
    act(() => result.current.loadOlder());
    await act(async () => reads[2].fail(new Error('GitLab timed out')));
    expect(result.current.error?.message).toBe('GitLab timed out');
    expect(result.current.olderFailed).toBe(true);
    expect(result.current.items).toEqual(['a1', 'a2']);

    act(() => result.current.retry());
    expect(reads.map(r => r.cursor)).toEqual([undefined, 'c2', 'c3', 'c3']);
    expect(result.current.error).toBeUndefined();
    await act(async () => reads[3].answer({ items: ['a3'] }));
    expect(result.current.items).toEqual(['a1', 'a2', 'a3']);
  });

  it('retries a first page that failed from the start, and a new query drops the list it cannot replace', async () => {
    const { reads, loadFor } = deferredLoads();
    const { result, rerender } = renderPages(loadFor);
    await act(async () => reads[0].fail(new Error('down')));
    expect(result.current.olderFailed).toBe(false);
    act(() => result.current.retry());
    expect(reads[1].cursor).toBeUndefined();
    await act(async () => reads[1].answer({ items: ['a1'], nextCursor: 'c2' }));
    expect(result.current.items).toEqual(['a1']);

    // A reload of the same query that fails keeps what did load.
    act(() => result.current.reload());
    await act(async () => reads[2].fail(new Error('down again')));
    expect(result.current.items).toEqual(['a1']);
    act(() => result.current.retry());
    expect(reads[3].cursor).toBeUndefined();
    await act(async () => reads[3].answer({ items: ['a1'], nextCursor: 'c2' }));

    // The first page of another query fails: the previous list is not its.
    rerender({ q: 'b' });
    await act(async () => reads[4].fail(new Error('down')));
    await waitFor(() => expect(result.current.error).toBeDefined());
    expect(result.current.items).toEqual([]);
    expect(result.current.response).toBeUndefined();
  });

  it('aborts the read in flight when the component goes away', async () => {
    const { reads, loadFor } = deferredLoads();
    const { unmount } = renderPages(loadFor);
    unmount();
    expect(reads[0].signal.aborted).toBe(true);
  });
});
