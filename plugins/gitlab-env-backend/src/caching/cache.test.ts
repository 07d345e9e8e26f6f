import { setTimeout as delay } from 'timers/promises';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { GitlabEnvFailure } from '../errors';
import { CoalescingCache } from './cache';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('CoalescingCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 0;
  });

  it('shares one load between callers and serves it for the TTL', async () => {
    const cache = new CoalescingCache({ ttlMs: 1000, now: clock });
    const load = jest.fn(async () => 'value');
    expect(cache.has('k')).toBe(false);
    const [a, b] = await Promise.all([
      cache.getOrLoad('k', load),
      cache.getOrLoad('k', load),
    ]);
    expect([a, b]).toEqual(['value', 'value']);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.has('k')).toBe(true);
    now = 1000;
    expect(cache.has('k')).toBe(false);
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('drops what expired by its clock when a later load starts, and only then', async () => {
    const cache = new CoalescingCache({ ttlMs: 1000, now: clock });
    const held = () =>
      (cache as unknown as { entries: Map<string, unknown> }).entries.size;
    await cache.getOrLoad('a', async () => 'a');
    now = 500;
    await cache.getOrLoad('b', async () => 'b');
    expect(held()).toBe(2);
    now = 1200;
    await cache.getOrLoad('c', async () => 'c');
    expect(held()).toBe(2);
    now = 1600;
    await cache.getOrLoad('d', async () => 'd');
    expect(held()).toBe(2);
    expect(cache.has('c')).toBe(true);
  });

  it('forgets a key on request: the next reader loads again, those already waiting keep their load', async () => {
    const cache = new CoalescingCache({ ttlMs: 1000, now: clock });
    let round = 0;
    const load = jest.fn(async () => `value ${++round}`);
    expect(await cache.getOrLoad('k', load)).toBe('value 1');
    cache.forget('k');
    expect(cache.has('k')).toBe(false);
    expect(await cache.getOrLoad('k', load)).toBe('value 2');
    let finish: (v: string) => void = () => {};
    const slow = cache.getOrLoad(
      'slow',
      () => new Promise<string>(resolve => (finish = resolve)),
    );
    cache.forget('slow');
    await new Promise(resolve => setImmediate(resolve));
    finish('old');
    expect(await slow).toBe('old');
    expect(await cache.getOrLoad('slow', async () => 'new')).toBe('new');
  });

  it('counts a load in flight as present', () => {
    const cache = new CoalescingCache({ ttlMs: 1000, now: clock });
    cache.getOrLoad('k', () => new Promise(() => {}));
    now = 5000;
    expect(cache.has('k')).toBe(true);
  });

  it('keeps each failure as long as failureTtlMs says: definitive ones long, transient ones briefly', async () => {
    const cache = new CoalescingCache({
      ttlMs: 1000,
      now: clock,
      failureTtlMs: error =>
        (error as Error).message === 'definitive' ? 1000 : 5,
    });
    await expect(
      cache.getOrLoad('t', async () => {
        throw new Error('transient');
      }),
    ).rejects.toThrow('transient');
    await expect(
      cache.getOrLoad('d', async () => {
        throw new Error('definitive');
      }),
    ).rejects.toThrow('definitive');
    expect([cache.has('t'), cache.has('d')]).toEqual([true, true]);
    now = 5;
    expect([cache.has('t'), cache.has('d')]).toEqual([false, true]);
  });

  it('keeps a value as long as valueTtlMs says (a partial answer briefly)', async () => {
    const cache = new CoalescingCache({
      ttlMs: 1000,
      now: clock,
      valueTtlMs: value => (value === 'partial' ? 5 : 1000),
    });
    await cache.getOrLoad('p', async () => 'partial');
    await cache.getOrLoad('c', async () => 'complete');
    now = 5;
    expect([cache.has('p'), cache.has('c')]).toEqual([false, true]);
  });

  it('cuts off a load that never settles at its deadline, so no later caller shares it', async () => {
    const cache = new CoalescingCache({ ttlMs: 1000, deadlineMs: 20 });
    const first = cache.getOrLoad('k', () => new Promise(() => {}));
    await expect(first).rejects.toBeInstanceOf(GitlabEnvFailure);
    await expect(first).rejects.toMatchObject({
      detail: { code: 'UPSTREAM_TIMEOUT' },
    });
    expect(cache.has('k')).toBe(false);
    await expect(cache.getOrLoad('k', async () => 'fresh')).resolves.toBe(
      'fresh',
    );
  });

  it('aborts the load once every caller that can leave has left, and forgets it', async () => {
    const cache = new CoalescingCache({ ttlMs: 1000 });
    let loadSignal: AbortSignal | undefined;
    const load = (signal: AbortSignal) => {
      loadSignal = signal;
      return new Promise<string>((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    };
    const a = new AbortController();
    const b = new AbortController();
    const first = cache.getOrLoad('k', load, { signal: a.signal });
    const second = cache.getOrLoad('k', load, { signal: b.signal });
    a.abort();
    await expect(first).rejects.toMatchObject({
      detail: { code: 'UPSTREAM_TIMEOUT' },
    });
    expect(loadSignal!.aborted).toBe(false);
    b.abort();
    await expect(second).rejects.toBeInstanceOf(GitlabEnvFailure);
    expect(loadSignal!.aborted).toBe(true);
    expect(cache.has('k')).toBe(false);
  });

  it('lets a load run on when its last caller only reached its own deadline', async () => {
    const cache = new CoalescingCache({ ttlMs: 1000 });
    let resolveLoad: (v: string) => void = () => {};
    const load = () =>
      new Promise<string>(resolve => {
        resolveLoad = resolve;
      });
    const late = cache.getOrLoad('k', load, {
      signal: AbortSignal.timeout(5),
    });
    await expect(late).rejects.toBeInstanceOf(GitlabEnvFailure);
    expect(cache.has('k')).toBe(true);
    resolveLoad('value');
    await expect(cache.getOrLoad('k', load)).resolves.toBe('value');
  });

  it('never abandons a load a caller without a signal waits for', async () => {
    const cache = new CoalescingCache({ ttlMs: 1000 });
    let resolveLoad: (v: string) => void = () => {};
    const load = () =>
      new Promise<string>(resolve => {
        resolveLoad = resolve;
      });
    const leaving = new AbortController();
    const left = cache.getOrLoad('k', load, { signal: leaving.signal });
    const staying = cache.getOrLoad('k', load);
    leaving.abort();
    await expect(left).rejects.toBeInstanceOf(GitlabEnvFailure);
    resolveLoad('value');
    await expect(staying).resolves.toBe('value');
  });

  it('holds a value no longer than its TTL, even where the signal of its load lives on', async () => {
    const cache = new CoalescingCache({ ttlMs: 20, deadlineMs: 10_000 });
    // What a long-lived queue does with an upstream request's closure.
    const keptSignals: AbortSignal[] = [];
    let value: WeakRef<object> | undefined;
    await (async () => {
      const read = await cache.getOrLoad('k', async signal => {
        keptSignals.push(signal);
        return { objects: new Array(1000) };
      });
      value = new WeakRef(read);
    })();
    await delay(60);
    gc();
    expect(value!.deref()).toBeUndefined();
    expect(cache.has('k')).toBe(false);
    expect(keptSignals).toHaveLength(1);
  });

  it('drops a value whose timer fired before the clock reached its expiry', async () => {
    let lag = 0;
    const cache = new CoalescingCache({
      ttlMs: 20,
      now: () => Date.now() - lag,
    });
    await cache.getOrLoad('k', async () => 'value');
    // The clock falls 15 ms behind the timers: the expiry timer is early.
    lag = 15;
    await delay(25);
    lag = 0;
    await delay(30);
    // Asked through the map, not has(), which would check the clock itself.
    expect(
      (cache as unknown as { entries: Map<string, unknown> }).entries.has('k'),
    ).toBe(false);
  });
});
