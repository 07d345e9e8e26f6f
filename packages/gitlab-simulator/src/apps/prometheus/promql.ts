/**
 * The part of PromQL a usage trend needs, parsed strictly
 * (https://prometheus.io/docs/prometheus/latest/querying/basics/):
 *
 *   expr      := aggregate | call | selector
 *   aggregate := (sum|avg|min|max|count) [grouping] "(" expr ")" [grouping]
 *   grouping  := (by|without) "(" [label {"," label}] ")"
 *   call      := (rate|irate) "(" selector "[" duration "]" ")"
 *   selector  := metric ["{" [matcher {"," matcher} [","]] "}"]
 *   matcher   := label ("=" | "!=" | "=~" | "!~") string
 *
 * Anything else (binary operators, other functions, offsets, subqueries)
 * is refused with a parse error in Prometheus's words and position, so a
 * client can never read a value the simulator did not really compute.
 * Written here because no maintained JavaScript PromQL evaluator exists;
 * the grammar above is all it needs.
 */

export class PromqlError extends Error {}

export type MatchOp = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  label: string;
  op: MatchOp;
  value: string;
  /** For `=~` and `!~`: the fully anchored regular expression. */
  pattern?: RegExp;
}

export interface Selector {
  type: 'selector';
  metric: string;
  matchers: Matcher[];
}

export type Expr =
  | Selector
  | {
      type: 'call';
      fn: 'rate' | 'irate';
      selector: Selector;
      rangeMs: number;
    }
  | {
      type: 'aggregate';
      op: AggregateOp;
      grouping?: { without: boolean; labels: string[] };
      expr: Expr;
    };

export type AggregateOp = 'sum' | 'avg' | 'min' | 'max' | 'count';
const AGGREGATES = new Set(['sum', 'avg', 'min', 'max', 'count']);
const FUNCTIONS = new Set(['rate', 'irate']);
const SUPPORTED =
  'the simulated Prometheus evaluates sum/avg/min/max/count [by|without (…)] over rate() or irate() of a selector and plain selectors';

interface Token {
  kind: 'ident' | 'string' | 'duration' | 'number' | 'punct' | 'op' | 'end';
  text: string;
  value?: string;
  at: number;
}

const DURATION = /^(?:\d+(?:ms|s|m|h|d|w|y))+/;
const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1e3,
  m: 60e3,
  h: 3600e3,
  d: 86400e3,
  w: 7 * 86400e3,
  y: 365 * 86400e3,
};

/** `1h30m` → milliseconds. */
export function parseDuration(text: string): number | undefined {
  if (!DURATION.test(text) || DURATION.exec(text)![0] !== text)
    return undefined;
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) {
    total += Number(n) * UNIT_MS[unit];
  }
  return total;
}

function position(query: string, at: number): string {
  const before = query.slice(0, at).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string): never => {
    throw new PromqlError(`${position(query, i)}: parse error: ${message}`);
  };
  while (i < query.length) {
    const rest = query.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const ident = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(rest);
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0], at: i });
      i += ident[0].length;
      continue;
    }
    const duration = DURATION.exec(rest);
    if (duration) {
      tokens.push({ kind: 'duration', text: duration[0], at: i });
      i += duration[0].length;
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(rest);
    if (number) {
      tokens.push({ kind: 'number', text: number[0], at: i });
      i += number[0].length;
      continue;
    }
    const op = /^(=~|!~|!=|=)/.exec(rest);
    if (op) {
      tokens.push({ kind: 'op', text: op[0], at: i });
      i += op[0].length;
      continue;
    }
    if ('(){}[],'.includes(rest[0])) {
      tokens.push({ kind: 'punct', text: rest[0], at: i });
      i += 1;
      continue;
    }
    if (rest[0] === '"' || rest[0] === "'" || rest[0] === '`') {
      const quote = rest[0];
      let j = 1;
      let value = '';
      while (j < rest.length && rest[j] !== quote) {
        if (rest[j] === '\\' && quote !== '`' && j + 1 < rest.length) {
          const escaped = rest[j + 1];
          value +=
            { n: '\n', t: '\t', '\\': '\\', '"': '"', "'": "'" }[escaped] ??
            `\\${escaped}`;
          j += 2;
        } else {
          value += rest[j];
          j += 1;
        }
      }
      if (j >= rest.length) fail('unterminated quoted string');
      tokens.push({ kind: 'string', text: rest.slice(0, j + 1), value, at: i });
      i += j + 1;
      continue;
    }
    fail(
      '+-*/%^<>'.includes(rest[0])
        ? `unexpected character: '${rest[0]}' (${SUPPORTED})`
        : `unexpected character: '${rest[0]}'`,
    );
  }
  tokens.push({ kind: 'end', text: '', at: query.length });
  return tokens;
}

const MAX_PATTERN = 256;

function anchored(pattern: string, query: string, at: number): RegExp {
  // RE2 has neither lookaround nor backreferences (https://github.com/google/re2/wiki/Syntax).
  if (pattern.length > MAX_PATTERN || /\(\?[=!<]|\\[1-9]|\\k</.test(pattern)) {
    throw new PromqlError(
      `${position(
        query,
        at,
      )}: parse error: invalid regular expression ${JSON.stringify(pattern)}`,
    );
  }
  try {
    return new RegExp(`^(?:${pattern})$`, 's');
  } catch {
    throw new PromqlError(
      `${position(
        query,
        at,
      )}: parse error: error parsing regexp: ${JSON.stringify(pattern)}`,
    );
  }
}

/** Parses a query of the supported subset; PromqlError with Prometheus's message shape otherwise. */
export function parsePromql(query: string): Expr {
  const tokens = tokenize(query);
  let index = 0;
  const peek = () => tokens[index];
  const next = () => tokens[index++];
  const fail = (token: Token, message: string): never => {
    throw new PromqlError(
      `${position(query, token.at)}: parse error: ${message}`,
    );
  };
  const describe = (token: Token) =>
    token.kind === 'end' ? 'end of input' : `"${token.text}"`;
  const expect = (text: string) => {
    const token = next();
    if (token.text !== text || token.kind === 'string')
      fail(token, `unexpected ${describe(token)}, expected "${text}"`);
  };

  function grouping() {
    const keyword = next();
    expect('(');
    const labels: string[] = [];
    while (peek().text !== ')') {
      const label = next();
      if (label.kind !== 'ident')
        fail(label, `unexpected ${describe(label)} in grouping`);
      labels.push(label.text);
      if (peek().text === ',') next();
      else break;
    }
    expect(')');
    return { without: keyword.text === 'without', labels };
  }

  function selector(): Selector {
    const name = next();
    if (name.kind !== 'ident')
      fail(
        name,
        name.text === '{'
          ? `a metric name is required (${SUPPORTED})`
          : `unexpected ${describe(name)}`,
      );
    const matchers: Matcher[] = [];
    if (peek().text === '{') {
      next();
      while (peek().text !== '}') {
        const label = next();
        if (label.kind !== 'ident')
          fail(
            label,
            `unexpected ${describe(label)} in label matching, expected label`,
          );
        const op = next();
        if (op.kind !== 'op')
          fail(
            op,
            `unexpected ${describe(
              op,
            )} in label matching, expected label matching operator`,
          );
        const value = next();
        if (value.kind !== 'string')
          fail(
            value,
            `unexpected ${describe(value)} in label matching, expected string`,
          );
        const matcher: Matcher = {
          label: label.text,
          op: op.text as MatchOp,
          value: value.value!,
        };
        if (matcher.op === '=~' || matcher.op === '!~')
          matcher.pattern = anchored(matcher.value, query, value.at);
        matchers.push(matcher);
        if (peek().text === ',') next();
        else break;
      }
      expect('}');
    }
    return { type: 'selector', metric: name.text, matchers };
  }

  function expression(): Expr {
    const token = peek();
    if (token.kind !== 'ident')
      return fail(token, `unexpected ${describe(token)}`);
    if (AGGREGATES.has(token.text)) {
      next();
      let group =
        peek().text === 'by' || peek().text === 'without'
          ? grouping()
          : undefined;
      expect('(');
      const inner = expression();
      expect(')');
      if (!group && (peek().text === 'by' || peek().text === 'without'))
        group = grouping();
      return {
        type: 'aggregate',
        op: token.text as AggregateOp,
        ...(group ? { grouping: group } : {}),
        expr: inner,
      };
    }
    if (tokens[index + 1]?.text === '(') {
      if (!FUNCTIONS.has(token.text))
        fail(token, `function "${token.text}" is not supported: ${SUPPORTED}`);
      next();
      expect('(');
      const sel = selector();
      const open = next();
      if (open.text !== '[')
        fail(
          open,
          `expected type range vector in call to function "${token.text}", got instant vector`,
        );
      const range = next();
      const rangeMs =
        range.kind === 'duration' ? parseDuration(range.text) : undefined;
      if (!rangeMs)
        fail(range, `unexpected ${describe(range)}, expected duration`);
      expect(']');
      expect(')');
      return {
        type: 'call',
        fn: token.text as 'rate' | 'irate',
        selector: sel,
        rangeMs: rangeMs!,
      };
    }
    return selector();
  }

  if (peek().kind === 'end')
    throw new PromqlError('1:1: parse error: no expression found in input');
  const expr = expression();
  const rest = peek();
  if (rest.kind !== 'end')
    fail(rest, `unexpected ${describe(rest)} (${SUPPORTED})`);
  return expr;
}

/** Does a series' label set satisfy the matchers (an absent label is "")? */
export function matches(
  labels: Record<string, string>,
  matchers: Matcher[],
): boolean {
  return matchers.every(m => {
    const value = labels[m.label] ?? '';
    switch (m.op) {
      case '=':
        return value === m.value;
      case '!=':
        return value !== m.value;
      case '=~':
        return m.pattern!.test(value);
      default:
        return !m.pattern!.test(value);
    }
  });
}
