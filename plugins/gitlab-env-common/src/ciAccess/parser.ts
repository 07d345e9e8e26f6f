import {
  CiExpressionError,
  CiOperator,
  CiToken,
  lexCiExpression,
} from './lexer';
import { compileRe2, Re2Compiled, Re2Pattern } from './re2';

/** The parse tree of a CI `rules:if` expression. @public */
export type CiExpressionNode =
  | { kind: 'variable'; name: string; position: number }
  | { kind: 'string'; value: string; position: number }
  | { kind: 'pattern'; regexp: Re2Pattern; text: string; position: number }
  | { kind: 'null'; position: number }
  | { kind: 'boolean'; value: boolean; position: number }
  | {
      kind: 'binary';
      operator: CiOperator;
      left: CiExpressionNode;
      right: CiExpressionNode;
      position: number;
    };

/** @public */
export type ParseResult =
  | { tree: CiExpressionNode }
  | { error: CiExpressionError };

/**
 * Ruby's operator precedence as GitLab's lexemes declare it (lower binds
 * tighter): comparisons 10, `&&` 11, `||` 12; all left-associative.
 */
const PRECEDENCE: Record<CiOperator, number> = {
  '==': 10,
  '!=': 10,
  '=~': 10,
  '!~': 10,
  '&&': 11,
  '||': 12,
};

/**
 * Turns a `/pattern/flags` text into an RE2 pattern the way
 * Gitlab::UntrustedRegexp::RubySyntax does: `\/` becomes `/`, the pattern is
 * everything between the first and the last slash of a line, flags i, s, m,
 * U. Used for literals and for variables on the right of `=~`.
 */
export function rubySyntaxRegexp(text: string): Re2Compiled {
  const unescaped = text.replace(/\\\//g, '/');
  const m = /^\/(.*)\/([ismU]*)$/m.exec(unescaped);
  if (!m) return { error: 'not a /pattern/' };
  return compileRe2(m[1], m[2]);
}

type Pending =
  | { kind: 'operator'; token: Extract<CiToken, { kind: 'operator' }> }
  | { kind: 'open'; token: Extract<CiToken, { kind: 'open' }> };

/** Orders tokens in reverse Polish notation (shunting-yard), like GitLab's parser. */
function toRpn(
  tokens: CiToken[],
): { rpn: CiToken[] } | { error: CiExpressionError } {
  const output: CiToken[] = [];
  const pending: Pending[] = [];
  for (const token of tokens) {
    if (token.kind === 'operator') {
      for (;;) {
        const top = pending[pending.length - 1];
        if (
          top?.kind !== 'operator' ||
          PRECEDENCE[top.token.operator] > PRECEDENCE[token.operator]
        ) {
          break;
        }
        output.push(pending.pop()!.token);
      }
      pending.push({ kind: 'operator', token });
    } else if (token.kind === 'open') {
      pending.push({ kind: 'open', token });
    } else if (token.kind === 'close') {
      while (
        pending.length > 0 &&
        pending[pending.length - 1].kind !== 'open'
      ) {
        output.push(pending.pop()!.token);
      }
      if (pending.length === 0) {
        return {
          error: {
            message: `Unmatched parenthesis: ")" at position ${token.position} has no "("`,
            position: token.position,
          },
        };
      }
      pending.pop();
    } else {
      output.push(token);
    }
  }
  while (pending.length > 0) {
    const top = pending.pop()!;
    if (top.kind === 'open') {
      return {
        error: {
          message: `Unmatched parenthesis: "(" at position ${top.token.position} is never closed`,
          position: top.token.position,
        },
      };
    }
    output.push(top.token);
  }
  return { rpn: output };
}

function valueNode(
  token: Exclude<CiToken, { kind: 'operator' | 'open' | 'close' }>,
): CiExpressionNode | CiExpressionError {
  switch (token.kind) {
    case 'variable':
      return { kind: 'variable', name: token.name, position: token.position };
    case 'string':
      return { kind: 'string', value: token.value, position: token.position };
    case 'null':
      return { kind: 'null', position: token.position };
    case 'boolean':
      return { kind: 'boolean', value: token.value, position: token.position };
    default: {
      const compiled = rubySyntaxRegexp(token.source);
      if ('error' in compiled) {
        return {
          message: `Invalid regular expression! ${token.source} at position ${token.position}: ${compiled.error}`,
          position: token.position,
        };
      }
      return {
        kind: 'pattern',
        regexp: compiled.pattern,
        text: token.source,
        position: token.position,
      };
    }
  }
}

const endsOperand = (t: CiToken) => t.kind !== 'operator' && t.kind !== 'open';
const startsOperand = (t: CiToken) =>
  t.kind !== 'operator' && t.kind !== 'close';

/**
 * Two operands side by side (`$A "x"`, `$A ($B)`): GitLab's parser fails
 * with "Unreachable nodes in parse tree"; naming the first such place
 * tells the author where the operator is missing.
 */
function missingOperator(tokens: CiToken[]): CiExpressionError | undefined {
  for (let i = 1; i < tokens.length; i++) {
    if (endsOperand(tokens[i - 1]) && startsOperand(tokens[i])) {
      const at = tokens[i].position;
      return {
        message: `An operator (==, !=, =~, !~, &&, ||) is missing before position ${at}`,
        position: at,
      };
    }
  }
  return undefined;
}

/** Lexes and parses an expression; never throws. @public */
export function parseCiExpression(text: string): ParseResult {
  const lexed = lexCiExpression(text);
  if ('error' in lexed) return lexed;
  const missing = missingOperator(lexed.tokens);
  if (missing) return { error: missing };
  const ordered = toRpn(lexed.tokens);
  if ('error' in ordered) return ordered;
  const stack: CiExpressionNode[] = [];
  for (const token of ordered.rpn) {
    if (token.kind === 'operator') {
      const right = stack.pop();
      const left = stack.pop();
      if (!left || !right) {
        return {
          error: {
            message: `"${token.operator}" at position ${token.position} needs a value on both sides`,
            position: token.position,
          },
        };
      }
      stack.push({
        kind: 'binary',
        operator: token.operator,
        left,
        right,
        position: token.position,
      });
    } else if (token.kind !== 'open' && token.kind !== 'close') {
      const node = valueNode(token);
      if (!('kind' in node)) return { error: node };
      stack.push(node);
    }
  }
  if (stack.length === 0) {
    return { error: { message: 'The expression is empty', position: 0 } };
  }
  if (stack.length > 1) {
    const stray = stack[1];
    return {
      error: {
        message: `Unexpected value at position ${stray.position}: an operator (==, !=, =~, !~, &&, ||) is missing`,
        position: stray.position,
      },
    };
  }
  return { tree: stack[0] };
}
