import { CiExpressionError } from './lexer';
import {
  CiExpressionNode,
  parseCiExpression,
  rubySyntaxRegexp,
} from './parser';
import { PatternLimitError } from './patternLimits';
import { Re2Pattern } from './re2';

/**
 * What a sub-expression evaluates to, as in GitLab (Ruby): a string, nil,
 * true/false, or a regular expression. `&&` and `||` return one of their
 * operands, not a boolean.
 *
 * @public
 */
export type CiValue = string | null | boolean | Re2Pattern;

/** @public */
export type CiExpressionResult =
  | { value: boolean }
  | { error: CiExpressionError };

class EvaluationError extends Error {
  constructor(message: string, readonly position: number) {
    super(message);
  }
}

function isPattern(value: CiValue): value is Re2Pattern {
  return typeof value === 'object' && value !== null;
}

/** Ruby truthiness: only nil and false are false. */
function rubyTruthy(value: CiValue): boolean {
  return value !== null && value !== false;
}

/** ActiveSupport's `present?`: nil, false and blank strings are not present. @public */
export function ciValuePresent(value: CiValue): boolean {
  if (typeof value === 'string') return !/^\s*$/.test(value);
  return rubyTruthy(value);
}

function rubyToString(value: CiValue): string {
  if (value === null) return '';
  if (isPattern(value)) return `/${value.source}/`;
  return String(value);
}

function rubyEquals(a: CiValue, b: CiValue): boolean {
  if (isPattern(a) && isPattern(b)) {
    return a.source === b.source && a.flags === b.flags;
  }
  return a === b;
}

/**
 * lexeme/matches.rb: the right side may be a pattern, or a variable holding
 * `/…/` (converted with Pattern.build_and_evaluate); a right side that is no
 * valid pattern stays a string, and Ruby's `String#scan` then looks for the
 * left side inside it.
 */
function matches(text: CiValue, pattern: CiValue, position: number): boolean {
  let target = pattern;
  if (typeof target === 'string') {
    const compiled = rubySyntaxRegexp(target);
    if ('pattern' in compiled) target = compiled.pattern;
  }
  const subject = rubyToString(text);
  if (isPattern(target)) {
    try {
      return target.test(subject);
    } catch (error) {
      if (error instanceof PatternLimitError) {
        throw new EvaluationError(error.message, position);
      }
      throw error;
    }
  }
  if (typeof target === 'string') return target.includes(subject);
  throw new EvaluationError(
    `The right side of the match at position ${position} is ${String(
      target,
    )}, not a pattern or a string`,
    position,
  );
}

function evaluateNode(
  node: CiExpressionNode,
  variables: Record<string, string>,
): CiValue {
  switch (node.kind) {
    case 'variable':
      return Object.prototype.hasOwnProperty.call(variables, node.name)
        ? String(variables[node.name])
        : null;
    case 'string':
      return node.value;
    case 'null':
      return null;
    case 'boolean':
      return node.value;
    case 'pattern':
      return node.regexp;
    default: {
      const left = evaluateNode(node.left, variables);
      const right = evaluateNode(node.right, variables);
      switch (node.operator) {
        case '==':
          return rubyEquals(left, right);
        case '!=':
          return !rubyEquals(left, right);
        case '=~':
          return rubyTruthy(right)
            ? matches(left, right, node.position)
            : false;
        case '!~':
          return rubyTruthy(right)
            ? !matches(left, right, node.position)
            : true;
        case '&&':
          return rubyTruthy(left) ? right : left;
        default:
          return rubyTruthy(left) ? left : right;
      }
    }
  }
}

/**
 * The value GitLab's Statement#evaluate would return (a string for `$VAR`
 * or `$A && $B`, a boolean for comparisons), for the "try it" view and tests.
 *
 * @public
 */
export function evaluateCiExpressionValue(
  expression: string,
  variables: Record<string, string>,
): { value: CiValue } | { error: CiExpressionError } {
  try {
    const parsed = parseCiExpression(String(expression));
    if ('error' in parsed) return parsed;
    return { value: evaluateNode(parsed.tree, variables ?? {}) };
  } catch (error) {
    if (error instanceof EvaluationError) {
      return { error: { message: error.message, position: error.position } };
    }
    return { error: { message: `Could not evaluate: ${String(error)}` } };
  }
}

/**
 * Evaluates a CI `rules:if` expression against CI variables as GitLab does
 * (Statement#truthful?: the value must be present — a variable alone is true
 * when defined and not blank). Never throws; errors carry the position.
 *
 * @public
 */
export function evaluateCiExpression(
  expression: string,
  variables: Record<string, string>,
): CiExpressionResult {
  const result = evaluateCiExpressionValue(expression, variables);
  if ('error' in result) return result;
  return { value: ciValuePresent(result.value) };
}
