import fc from 'fast-check';
import { NO_PREFIX, idComparator } from './idOrder';

// Parts drawn from characters that sort below, at and above `/`.
const part = fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', '/', 'Z') });

describe('idComparator', () => {
  it('orders node indexes as their ids order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(part, part, part, part), {
          selector: ([g, k, ns, n]) => `${g}/${k}/${ns}/${n}`,
          maxLength: 40,
        }),
        keys => {
          const prefixes: string[] = [];
          const prefixOf: number[] = [];
          const ids: string[] = [];
          const names: string[] = [];
          for (const [group, kind, namespace, name] of keys) {
            const prefix = `${group}/${kind}/${namespace}/`;
            ids.push(prefix + name);
            names.push(name);
            if ([kind, namespace, name, group].some(p => p.includes('/'))) {
              prefixOf.push(NO_PREFIX);
              continue;
            }
            if (!prefixes.includes(prefix)) prefixes.push(prefix);
            prefixOf.push(prefixes.indexOf(prefix));
          }
          const indexes = ids.map((_, i) => i);
          indexes.sort(idComparator(ids, names, prefixes, prefixOf));
          expect(indexes.map(i => ids[i])).toEqual([...ids].sort());
        },
      ),
      { numRuns: 500 },
    );
  });
});
