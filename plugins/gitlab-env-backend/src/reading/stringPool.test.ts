import { StringPool } from './stringPool';

function pod(name: string) {
  return {
    metadata: {
      name,
      namespace: 'production-eu',
      uid: `uid-${name}`,
      resourceVersion: `rv-${name}`,
      labels: { app: 'storefront-web', tier: 'web' },
    },
    status: {
      conditions: [{ type: 'ContainersReady', status: 'True' }],
      message: 'x'.repeat(200),
    },
  };
}

describe('StringPool', () => {
  it('keeps objects equal to what was parsed', () => {
    const pool = new StringPool();
    const object = pod('web-1');
    const copy = structuredClone(object);
    pool.internValues(object);
    expect(object).toEqual(copy);
  });

  it('pools repeated short values, never uids, resource versions or long texts', () => {
    const pool = new StringPool();
    pool.internValues(pod('storefront-web-1'));
    pool.internValues(pod('storefront-web-2'));
    expect(pool.has('production-eu')).toBe(true);
    expect(pool.has('ContainersReady')).toBe(true);
    expect(pool.has('storefront-web-1')).toBe(true);
    expect(pool.has('uid-storefront-web-1')).toBe(false);
    expect(pool.has('rv-storefront-web-1')).toBe(false);
    expect(pool.has('x'.repeat(200))).toBe(false);
    // production-eu, storefront-web, ContainersReady and the two names.
    expect(pool.size).toBe(5);
  });

  it('leaves values of up to 10 characters to JSON.parse, which keeps one copy of each', () => {
    const pool = new StringPool();
    pool.internValues(pod('storefront-web-1'));
    expect(pool.has('web')).toBe(false);
    expect(pool.has('True')).toBe(false);
  });

  it('starts again when full, so it never grows past its bound', () => {
    const pool = new StringPool(4);
    for (let i = 0; i < 10; i++) pool.internValues(pod(`web-${i}`));
    expect(pool.size).toBeLessThanOrEqual(4);
  });
});
