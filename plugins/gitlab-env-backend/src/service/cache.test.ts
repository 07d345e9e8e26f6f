import { CoalescingCache } from './cache';

describe('CoalescingCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 0;
  });

  it('shares one load between callers and serves it for the TTL', async () => {
    const cache = new CoalescingCache(1000, clock);
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

  it('counts a load in flight as present', () => {
    const cache = new CoalescingCache(1000, clock);
    cache.getOrLoad('k', () => new Promise(() => {}));
    now = 5000;
    expect(cache.has('k')).toBe(true);
  });

  it('forgets transient failures and keeps the ones it is told are definitive', async () => {
    const cache = new CoalescingCache(
      1000,
      clock,
      error => (error as Error).message === 'definitive',
    );
    await expect(
      cache.getOrLoad('t', async () => {
        throw new Error('transient');
      }),
    ).rejects.toThrow('transient');
    expect(cache.has('t')).toBe(false);
    await expect(
      cache.getOrLoad('d', async () => {
        throw new Error('definitive');
      }),
    ).rejects.toThrow('definitive');
    expect(cache.has('d')).toBe(true);
  });
});
