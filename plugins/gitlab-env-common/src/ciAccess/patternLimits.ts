/**
 * Bounds on the patterns that users, repositories and agent configurations
 * supply, and on the text matched against them. Matching is linear, but
 * linear in the product of pattern and text: these keep one match well
 * below a millisecond-scale budget on the backend's event loop.
 *
 * @public
 */
export const PATTERN_LIMITS = {
  /** GitLab's limit for branch, tag and environment names. */
  maxNameLength: 255,
  /** Characters of a regular expression (between the slashes) or a wildcard pattern. */
  maxPatternLength: 1024,
  /** RE2 instructions of a compiled regular expression (`a{1000}` is about 1,000). */
  maxProgramSize: 2000,
  /** Characters of a value a pattern is matched against. */
  maxSubjectLength: 1024,
  /**
   * RE2 instructions × characters of one match, what its time grows with:
   * the largest pattern still matches any GitLab name, a smaller one
   * longer values (up to maxSubjectLength).
   */
  maxMatchWork: 2000 * 255,
} as const;

/** Which bound a PatternLimitError is about. @public */
export type PatternLimit = 'pattern_too_long' | 'input_too_long';

/**
 * A pattern or a value past PATTERN_LIMITS: refused instead of matched.
 *
 * @public
 */
export class PatternLimitError extends Error {
  constructor(
    /** A pattern past its length, or a value past the length matched. */
    readonly limit: PatternLimit,
    message: string,
  ) {
    super(message);
    this.name = 'PatternLimitError';
  }
}
