import { RE2JS, RE2JSException } from 're2js';
import { PATTERN_LIMITS, PatternLimitError } from './patternLimits';

/**
 * GitLab evaluates `=~` patterns with RE2 (Gitlab::UntrustedRegexp), which
 * matches in time linear in the input and refuses what would need
 * backtracking (back-references, look-around). `re2js`, a pure-JavaScript
 * port of RE2's Go sibling, gives the same syntax and guarantee in Node and
 * in the browser; a JavaScript RegExp would backtrack on patterns such as
 * `^(a+-?)+$`. Linear still scales with the compiled program, so patterns
 * and the text they are matched against are bounded (PATTERN_LIMITS).
 */

const FLAG_GROUP = /^[ismU]*$/;

/**
 * A compiled RE2 pattern as a `rules:if` expression holds it: the text
 * between the slashes, GitLab's flags, and an unanchored test.
 *
 * @public
 */
export interface Re2Pattern {
  /** The pattern as written between the slashes (`\/` already unescaped). */
  readonly source: string;
  /** GitLab's flags after the closing slash: `i`, `m`, `s`, `U`. */
  readonly flags: string;
  /**
   * Whether the pattern matches anywhere in `text` (RE2's PartialMatch, as
   * GitLab's `=~`). Throws PatternLimitError for a text longer than
   * PATTERN_LIMITS.maxSubjectLength, or than maxMatchWork allows for the
   * pattern's size.
   */
  test(text: string): boolean;
}

function re2Pattern(
  source: string,
  flags: string,
  compiled: RE2JS,
): Re2Pattern {
  const maxLength = Math.min(
    PATTERN_LIMITS.maxSubjectLength,
    Math.floor(PATTERN_LIMITS.maxMatchWork / compiled.programSize()),
  );
  return {
    source,
    flags,
    test(text: string) {
      if (text.length > maxLength) {
        throw new PatternLimitError(
          'input_too_long',
          `The value matched against /${source}/ has ${text.length} characters; at most ${maxLength} are matched against this pattern`,
        );
      }
      return compiled.test(text);
    },
  };
}

/** A compiled pattern, or why RE2 (or the portal's limits) refuse it. @public */
export type Re2Compiled = { pattern: Re2Pattern } | { error: string };

// Compiling costs more than matching; rules are evaluated for every cell
// of a matrix with the same few patterns.
const MAX_CACHED = 256;
const cache = new Map<string, Re2Compiled>();

function remember(key: string, compiled: Re2Compiled): Re2Compiled {
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

function compileUncached(pattern: string, flags: string): Re2Compiled {
  if (!FLAG_GROUP.test(flags)) {
    return { error: `invalid regular expression flags: ${flags}` };
  }
  if (pattern.length > PATTERN_LIMITS.maxPatternLength) {
    return {
      error: `the pattern has ${pattern.length} characters; the portal evaluates patterns of at most ${PATTERN_LIMITS.maxPatternLength}`,
    };
  }
  let compiled: RE2JS;
  try {
    // Gitlab::UntrustedRegexp::RubySyntax.fabricate!: flags become a
    // leading group, the rest is RE2 syntax as written.
    compiled = RE2JS.compile(flags ? `(?${flags})${pattern}` : pattern);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return {
      error: `invalid regular expression: ${error.message.replace(
        /^error parsing regexp: /,
        '',
      )}`,
    };
  }
  const size = compiled.programSize();
  if (size > PATTERN_LIMITS.maxProgramSize) {
    return {
      error: `the pattern compiles to ${size} RE2 instructions; the portal evaluates patterns of at most ${PATTERN_LIMITS.maxProgramSize} (use fewer or smaller {n,m} repetitions)`,
    };
  }
  return { pattern: re2Pattern(pattern, flags, compiled) };
}

/**
 * Compiles a pattern given as the inside of `/…/` plus GitLab's flags
 * (`i`, `m`, `s`, `U`), the way Gitlab::UntrustedRegexp::RubySyntax does:
 * flags become a leading `(?flags)` group. Refuses what RE2 refuses, and
 * patterns past PATTERN_LIMITS. Never throws.
 *
 * @public
 */
export function compileRe2(pattern: string, flags = ''): Re2Compiled {
  const key = `${flags}/${pattern}`;
  return cache.get(key) ?? remember(key, compileUncached(pattern, flags));
}
