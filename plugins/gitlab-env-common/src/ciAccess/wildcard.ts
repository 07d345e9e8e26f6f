import { PATTERN_LIMITS, PatternLimitError } from './patternLimits';

/**
 * The one wildcard matcher for names users, repositories and GitLab
 * supply: environment scopes and `ci_access` environments (`review/*`),
 * protected branches (`release/*`), the entity's environment globs. A
 * translation to a RegExp (`.*` per star) backtracks: `a*a*a*a*a*b` against
 * 255 `a`s tries every split, and glob libraries (minimatch, picomatch)
 * compile to a RegExp too. Here a greedy scan that, on a mismatch, only
 * moves the last star on by one character runs in O(pattern × text) at
 * worst, and in one pass for the usual single trailing star.
 */

/** How wildcardMatches reads a pattern. @public */
export interface WildcardOptions {
  /** Also treat `?` as any one character (globs); GitLab's own wildcards only know `*`. */
  singleCharacter?: boolean;
}

function bounded(value: string, what: 'pattern' | 'name'): void {
  const max =
    what === 'pattern'
      ? PATTERN_LIMITS.maxPatternLength
      : PATTERN_LIMITS.maxSubjectLength;
  if (value.length > max) {
    throw new PatternLimitError(
      what === 'pattern' ? 'pattern_too_long' : 'input_too_long',
      `The ${
        what === 'pattern'
          ? 'wildcard pattern'
          : 'name matched against wildcards'
      } ${JSON.stringify(`${value.slice(0, 40)}…`)} has ${
        value.length
      } characters; at most ${max} are matched`,
    );
  }
}

/**
 * Whether `name` matches `pattern` whole, `*` standing for any run of
 * characters (and `?` for one, with `singleCharacter`). Case-sensitive.
 * Throws PatternLimitError for a pattern or name past PATTERN_LIMITS.
 *
 * @public
 */
export function wildcardMatches(
  pattern: string,
  name: string,
  options: WildcardOptions = {},
): boolean {
  bounded(pattern, 'pattern');
  bounded(name, 'name');
  // Code points, so that `?` takes a whole character, not half of one.
  const p = options.singleCharacter ? Array.from(pattern) : pattern;
  const t = options.singleCharacter ? Array.from(name) : name;
  const one = options.singleCharacter ? '?' : undefined;
  let pi = 0;
  let ti = 0;
  // Where the last star is, and where in the name its run ends for now.
  let star = -1;
  let starEnd = 0;
  while (ti < t.length) {
    if (pi < p.length && p[pi] === '*') {
      star = pi++;
      starEnd = ti;
    } else if (pi < p.length && (p[pi] === t[ti] || p[pi] === one)) {
      pi++;
      ti++;
    } else if (star >= 0) {
      // The last star takes one more character; earlier stars never need
      // to give any back (their segments matched at the leftmost place).
      pi = star + 1;
      ti = ++starEnd;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}
