import { StringPool } from './stringPool';

function pod(name: string) {
  return {
    metadata: {
      name,
      namespace: 'prod',
      uid: `uid-${name}`,
      resourceVersion: `rv-${name}`,
      labels: { app: 'web' },
    },
    status: {
      conditions: [{ type: 'Ready', status: 'True' }],
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
    pool.internValues(pod('web-1'));
    pool.internValues(pod('web-2'));
    expect(pool.has('prod')).toBe(true);
    expect(pool.has('Ready')).toBe(true);
    expect(pool.has('web-1')).toBe(true);
    expect(pool.has('uid-web-1')).toBe(false);
    expect(pool.has('rv-web-1')).toBe(false);
    expect(pool.has('x'.repeat(200))).toBe(false);
    // prod, web, Ready, True and the two names.
    expect(pool.size).toBe(6);
  });

  it('starts again when full, so it never grows past its bound', () => {
    const pool = new StringPool(4);
    for (let i = 0; i < 10; i++) pool.internValues(pod(`web-${i}`));
    expect(pool.size).toBeLessThanOrEqual(4);
  });
});
