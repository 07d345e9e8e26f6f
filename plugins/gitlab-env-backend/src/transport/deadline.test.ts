import { setTimeout as delay } from 'timers/promises';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { getMaxListeners } from 'events';
import { allowManyListeners, deadlineSignal, whenAborted } from './deadline';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('deadlineSignal', () => {
  it('aborts with a TimeoutError at the deadline, even after a garbage collection', async () => {
    const source = new AbortController();
    const { signal } = deadlineSignal(30, [source.signal]);
    // What AbortSignal.any([source, AbortSignal.timeout(30)]) loses on Node 20.
    gc();
    await delay(80);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
  });

  it('aborts with a source, with its reason', () => {
    const source = new AbortController();
    const { signal } = deadlineSignal(10_000, [undefined, source.signal]);
    source.abort(new Error('client left'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('client left');
  });

  it('starts aborted when a source already is', () => {
    const { signal } = deadlineSignal(10_000, [AbortSignal.abort('gone')]);
    expect(signal.reason).toBe('gone');
  });

  it('once disposed, neither the deadline nor a source aborts it, and the source keeps no listener', async () => {
    const source = new AbortController();
    const added = jest.spyOn(source.signal, 'addEventListener');
    const removed = jest.spyOn(source.signal, 'removeEventListener');
    const { signal, dispose } = deadlineSignal(20, [source.signal]);
    dispose();
    expect(removed).toHaveBeenCalledWith('abort', added.mock.calls[0][1]);
    source.abort();
    await delay(50);
    expect(signal.aborted).toBe(false);
  });

  it('many deadlines under one source listen to it once, each told once in order, and leave it no listener', () => {
    const source = new AbortController();
    const added = jest.spyOn(source.signal, 'addEventListener');
    const removed = jest.spyOn(source.signal, 'removeEventListener');
    const deadlines = Array.from({ length: 100 }, () =>
      deadlineSignal(60_000, [source.signal]),
    );
    deadlines.forEach(d => d.dispose());
    expect(added).toHaveBeenCalledTimes(1);
    expect(removed).toHaveBeenCalledWith('abort', added.mock.calls[0][1]);

    const told: number[] = [];
    const stops = [1, 2, 3].map(i =>
      whenAborted(source.signal, () => told.push(i)),
    );
    stops[1]();
    const kept = deadlineSignal(60_000, [source.signal]);
    source.abort('gone');
    expect(told).toEqual([1, 3]);
    expect(kept.signal.reason).toBe('gone');
    expect(added).toHaveBeenCalledTimes(2);
  });
});

describe('allowManyListeners', () => {
  it("lets fetch read the signal's listener bound (it read a thrown error on every request)", () => {
    const { signal, dispose } = deadlineSignal(1_000);
    expect(getMaxListeners(signal)).toBe(Infinity);
    dispose();
    const controller = new AbortController();
    allowManyListeners(controller.signal);
    expect(getMaxListeners(controller.signal)).toBe(Infinity);
  });
});
