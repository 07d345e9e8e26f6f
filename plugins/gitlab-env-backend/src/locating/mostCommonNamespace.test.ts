import { mostCommonNamespace } from './mostCommonNamespace';

describe('mostCommonNamespace', () => {
  it('names the namespace that occurs most, the first by name on a tie, none for none', () => {
    expect(mostCommonNamespace(['b', 'a', 'b'])).toBe('b');
    expect(mostCommonNamespace(['shop', 'blog'])).toBe('blog');
    expect(mostCommonNamespace([])).toBeUndefined();
  });
});
