import fc from 'fast-check';
import { PairBits } from './pairBits';

describe('PairBits', () => {
  it('reports a bit as new once per pair', () => {
    const pairs = new PairBits();
    expect(pairs.add(0, 1, 1)).toBe(true);
    expect(pairs.add(0, 1, 1)).toBe(false);
    expect(pairs.add(0, 1, 2)).toBe(true);
    expect(pairs.add(1, 0, 1)).toBe(true);
    expect(pairs.add(0, 1, 2)).toBe(false);
  });

  it('agrees with a Set of keys through many doublings', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat({ max: 300 }),
            fc.nat({ max: 300 }),
            fc.constantFrom(1, 2, 4, 64),
          ),
          { maxLength: 2000 },
        ),
        adds => {
          const pairs = new PairBits(1);
          const seen = new Set<string>();
          for (const [a, b, bit] of adds) {
            const key = `${a},${b},${bit}`;
            expect(pairs.add(a, b, bit)).toBe(!seen.has(key));
            seen.add(key);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
