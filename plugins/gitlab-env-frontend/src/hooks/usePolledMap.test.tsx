import { act, renderHook } from '@testing-library/react';
import { usePolledMap } from './usePolledMap';

describe('usePolledMap', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets a load slower than the interval finish instead of aborting and restarting it', async () => {
    const signals: AbortSignal[] = [];
    let resolve: (value: string) => void = () => {};
    const load = jest.fn(
      (_key: string, signal: AbortSignal) =>
        new Promise<string>(done => {
          signals.push(signal);
          resolve = done;
        }),
    );
    const { result } = renderHook(() =>
      usePolledMap(['list'], load, { intervalMs: 15_000, paused: false }),
    );
    // Three intervals pass while the first load (20 s and more) is in flight.
    await act(async () => {
      jest.advanceTimersByTime(45_000);
    });
    expect(load).toHaveBeenCalledTimes(1);
    expect(signals[0].aborted).toBe(false);
    await act(async () => resolve('done'));
    expect(result.current.entries.get('list')?.value).toBe('done');
    // Once it has finished, the next interval reloads.
    await act(async () => {
      jest.advanceTimersByTime(15_000);
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
