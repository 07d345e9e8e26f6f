import fc from 'fast-check';
import { PATTERN_LIMITS, PatternLimitError } from './patternLimits';
import { wildcardMatches } from './wildcard';

/** The translation the matcher replaces, as an oracle on inputs too short to backtrack badly. */
function oracle(pattern: string, name: string, singleCharacter = false) {
  const source = Array.from(pattern)
    .map(c => {
      if (c === '*') return '.*';
      if (c === '?' && singleCharacter) return '.';
      return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`, 'su').test(name);
}

describe('wildcardMatches', () => {
  it.each([
    ['review/*', 'review/feature-x', true],
    ['review/*', 'review/', true],
    ['review/*', 'review', false],
    ['*', '', true],
    ['', '', true],
    ['', 'a', false],
    ['release/*-rc*', 'release/1.2-rc3', true],
    ['release/*-rc*', 'release/1.2', false],
    ['*-stable', 'v1-stable', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['a?c', 'a?c', true],
    ['a?c', 'abc', false],
    ['a.b', 'axb', false],
    ['**', 'anything', true],
  ] as const)('%p matches %p: %p', (pattern, name, expected) => {
    expect(wildcardMatches(pattern, name)).toBe(expected);
  });

  it('treats ? as one character, also a character outside the BMP, for globs', () => {
    const glob = { singleCharacter: true };
    expect(wildcardMatches('prod-?', 'prod-1', glob)).toBe(true);
    expect(wildcardMatches('prod-?', 'prod-12', glob)).toBe(false);
    expect(wildcardMatches('env-?', 'env-😀', glob)).toBe(true);
    expect(wildcardMatches('*-?-*', 'a-b-c', glob)).toBe(true);
  });

  it('answers the hostile cases correctly', () => {
    const as = 'a'.repeat(PATTERN_LIMITS.maxNameLength);
    expect(wildcardMatches('a*a*a*a*a*b', as)).toBe(false);
    expect(wildcardMatches('a*a*a*a*a*b', `${as.slice(1)}b`)).toBe(true);
    expect(wildcardMatches(`${'*a'.repeat(100)}*b`, as)).toBe(false);
    expect(wildcardMatches(`${'*a'.repeat(100)}*`, as)).toBe(true);
    expect(
      wildcardMatches(`${'?*'.repeat(100)}b`, as, { singleCharacter: true }),
    ).toBe(false);
  });

  it('agrees with the RegExp translation on short inputs', () => {
    const alphabet = fc.constantFrom('a', 'b', '*', '?', '.', '/', 'é', '😀');
    const text = fc
      .array(alphabet, { maxLength: 10 })
      .map(parts => parts.join(''));
    fc.assert(
      fc.property(text, text, fc.boolean(), (pattern, name, single) => {
        expect(
          wildcardMatches(pattern, name, { singleCharacter: single }),
        ).toBe(oracle(pattern, name, single));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a pattern or a name past the limits with a typed error', () => {
    const long = 'x'.repeat(PATTERN_LIMITS.maxPatternLength + 1);
    expect(() => wildcardMatches(long, 'x')).toThrow(PatternLimitError);
    const tooLong = 'y'.repeat(PATTERN_LIMITS.maxSubjectLength + 1);
    expect(() => wildcardMatches('*', tooLong)).toThrow(
      expect.objectContaining({
        limit: 'input_too_long',
        message: expect.stringContaining(
          `at most ${PATTERN_LIMITS.maxSubjectLength}`,
        ),
      }),
    );
  });
});
