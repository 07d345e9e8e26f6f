import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { concurrencyLimit } from './concurrencyLimit';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('concurrencyLimit', () => {
  it('runs at most n calls at once and hands each its own result', async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map(n =>
        limit(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise(resolve => setTimeout(resolve, 5));
          running -= 1;
          return n * 10;
        }),
      ),
    );
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(peak).toBe(2);
  });

  it('passes a failure on', async () => {
    const limit = concurrencyLimit(1);
    await expect(
      limit(async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(limit(async () => 'next')).resolves.toBe('next');
  });

  it('holds no result once the caller has it: a long-lived limiter keeps no page of objects', async () => {
    const limit = concurrencyLimit(4);
    let result: WeakRef<object> | undefined;
    await (async () => {
      const page = await limit(async () => ({ items: new Array(1000) }));
      result = new WeakRef(page);
    })();
    // Let the limiter's own promise reactions run, then collect.
    await new Promise(resolve => setImmediate(resolve));
    gc();
    expect(result!.deref()).toBeUndefined();
  });
});
