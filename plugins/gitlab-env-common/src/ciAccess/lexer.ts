/**
 * Tokens of GitLab's CI `rules:if` expression language, scanned the way
 * GitLab's lexer does (lib/gitlab/ci/pipeline/expression/lexer.rb): at each
 * position, after skipping white space, the first lexeme whose pattern
 * matches there wins, in GitLab's order (parentheses, variable, string,
 * pattern, null, boolean, then the operators).
 */

export type CiOperator = '==' | '!=' | '=~' | '!~' | '&&' | '||';

export type CiToken =
  | { kind: 'variable'; name: string; position: number; text: string }
  | { kind: 'string'; value: string; position: number; text: string }
  | { kind: 'pattern'; source: string; position: number; text: string }
  | { kind: 'null'; position: number; text: string }
  | { kind: 'boolean'; value: boolean; position: number; text: string }
  | { kind: 'operator'; operator: CiOperator; position: number; text: string }
  | { kind: 'open'; position: number; text: string }
  | { kind: 'close'; position: number; text: string };

export interface CiExpressionError {
  message: string;
  /** Zero-based offset in the expression where the problem is. */
  position?: number;
}

export type LexResult = { tokens: CiToken[] } | { error: CiExpressionError };

/**
 * GitLab's lexer stops after MAX_TOKENS (100) scans and then fails, even
 * when only white space is left, so at most 99 tokens pass.
 */
export const CI_EXPRESSION_MAX_TOKENS = 100;

// Ruby's `\s` is ASCII white space only.
const WHITESPACE = /[ \t\r\n\f\v]+/y;
// `\w` in Ruby is ASCII-only by default, like JavaScript's without the u flag.
const VARIABLE = /\$(\w+)/y;
// `${VAR}`: the agent `rules` proposal's form; GitLab's rules:if lexer only knows `$VAR`.
const BRACED_VARIABLE = /\$\{(\w+)\}/y;
// Ruby's `.` stops at a newline, so a string literal cannot span lines.
const STRING = /"([^\n]*?)"|'([^\n]*?)'/y;
// lexeme/pattern.rb: at least two characters between the slashes, the last
// one not a backslash; `\/` does not end the pattern; flags i, s, m, U.
const PATTERN = /\/(?:[^/]|\\\/)+[^\\]\/[ismU]*/y;
const NULL = /null/y;
const BOOLEAN = /\b(?:true|false)\b/y;
const OPERATORS: CiOperator[] = ['==', '=~', '!=', '!~', '&&', '||'];

function scan(pattern: RegExp, text: string, at: number) {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

function scanOne(text: string, at: number): CiToken | undefined {
  const c = text[at];
  if (c === '(') return { kind: 'open', position: at, text: c };
  if (c === ')') return { kind: 'close', position: at, text: c };
  let m = scan(VARIABLE, text, at) ?? scan(BRACED_VARIABLE, text, at);
  if (m) return { kind: 'variable', name: m[1], position: at, text: m[0] };
  m = scan(STRING, text, at);
  if (m) {
    return { kind: 'string', value: m[1] ?? m[2], position: at, text: m[0] };
  }
  m = scan(PATTERN, text, at);
  if (m) return { kind: 'pattern', source: m[0], position: at, text: m[0] };
  m = scan(NULL, text, at);
  if (m) return { kind: 'null', position: at, text: m[0] };
  m = scan(BOOLEAN, text, at);
  if (m) {
    return {
      kind: 'boolean',
      value: m[0] === 'true',
      position: at,
      text: m[0],
    };
  }
  const operator = OPERATORS.find(op => text.startsWith(op, at));
  if (operator) {
    return { kind: 'operator', operator, position: at, text: operator };
  }
  return undefined;
}

/** Splits an expression into tokens; never throws. */
export function lexCiExpression(text: string): LexResult {
  const tokens: CiToken[] = [];
  let at = 0;
  for (let scans = 0; scans < CI_EXPRESSION_MAX_TOKENS; scans++) {
    const space = scan(WHITESPACE, text, at);
    if (space) at += space[0].length;
    if (at >= text.length) return { tokens };
    const token = scanOne(text, at);
    if (!token) {
      return {
        error: {
          message: `Unknown lexeme found at position ${at}: ${JSON.stringify(
            text.slice(at, at + 10),
          )}`,
          position: at,
        },
      };
    }
    tokens.push(token);
    at += token.text.length;
  }
  return {
    error: {
      message: `Too many tokens: GitLab stops after ${
        CI_EXPRESSION_MAX_TOKENS - 1
      }`,
      position: at,
    },
  };
}
