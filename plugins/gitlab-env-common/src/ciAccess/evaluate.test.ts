import fc from 'fast-check';
import {
  evaluateCiExpression,
  evaluateCiExpressionValue,
  CiValue,
} from './evaluate';
import { lexCiExpression } from './lexer';
import { parseCiExpression } from './parser';
import { PATTERN_LIMITS } from './patternLimits';

// Variables of GitLab's spec/lib/gitlab/ci/pipeline/expression/statement_spec.rb.
const VARIABLES = {
  PRESENT_VARIABLE: 'my variable',
  PATH_VARIABLE: 'a/path/variable/value',
  FULL_PATH_VARIABLE: '/a/full/path/variable/value',
  EMPTY_VARIABLE: '',
};

function valueOf(
  expression: string,
  variables: Record<string, string> = VARIABLES,
): CiValue {
  const result = evaluateCiExpressionValue(expression, variables);
  if ('error' in result)
    throw new Error(`${expression}: ${result.error.message}`);
  return result.value;
}

function truthOf(
  expression: string,
  variables: Record<string, string> = VARIABLES,
) {
  const result = evaluateCiExpression(expression, variables);
  if ('error' in result)
    throw new Error(`${expression}: ${result.error.message}`);
  return result.value;
}

function errorOf(
  expression: string,
  variables: Record<string, string> = VARIABLES,
) {
  const result = evaluateCiExpression(expression, variables);
  if (!('error' in result))
    throw new Error(`${expression} evaluated to ${result.value}`);
  return result.error;
}

describe('evaluateCiExpression: values (statement_spec.rb #evaluate)', () => {
  // Strings are written as in the Ruby spec's single-quoted literals, where
  // only \\ and \' are escapes.
  const table: Array<[string, CiValue]> = [
    ['$PRESENT_VARIABLE == "my variable"', true],
    ['"my variable" == $PRESENT_VARIABLE', true],
    ["$PRESENT_VARIABLE == 'my variable'", true],
    ['$PRESENT_VARIABLE == null', false],
    ['$EMPTY_VARIABLE == null', false],
    ['"" == $EMPTY_VARIABLE', true],
    ['$EMPTY_VARIABLE', ''],
    ['$UNDEFINED_VARIABLE == null', true],
    ['null == $UNDEFINED_VARIABLE', true],
    ['$PRESENT_VARIABLE', 'my variable'],
    ['$UNDEFINED_VARIABLE', null],
    ['$PRESENT_VARIABLE =~ /var.*e$/', true],
    ['$PRESENT_VARIABLE =~ /va\\r.*e$/', false],
    ['$PRESENT_VARIABLE =~ /va\\/r.*e$/', false],
    ['$PRESENT_VARIABLE =~ /^var.*/', false],
    ['$EMPTY_VARIABLE =~ /var.*/', false],
    ['$UNDEFINED_VARIABLE =~ /var.*/', false],
    ['$PRESENT_VARIABLE =~ /VAR.*/i', true],
    ['$PATH_VARIABLE =~ /path\\/variable/', true],
    ['$FULL_PATH_VARIABLE =~ /^\\/a\\/full\\/path\\/variable\\/value$/', true],
    ['$FULL_PATH_VARIABLE =~ /\\/path\\/variable\\/value$/', true],
    ['$PRESENT_VARIABLE != "my variable"', false],
    ['"my variable" != $PRESENT_VARIABLE', false],
    ['$PRESENT_VARIABLE != null', true],
    ['$EMPTY_VARIABLE != null', true],
    ['"" != $EMPTY_VARIABLE', false],
    ['$UNDEFINED_VARIABLE != null', false],
    ['null != $UNDEFINED_VARIABLE', false],
    ['$PRESENT_VARIABLE !~ /var.*e$/', false],
    ['$PRESENT_VARIABLE !~ /^var.*/', true],
    ['$PRESENT_VARIABLE !~ /^v\\ar.*/', true],
    ['$PRESENT_VARIABLE !~ /^v\\/ar.*/', true],
    ['$EMPTY_VARIABLE !~ /var.*/', true],
    ['$UNDEFINED_VARIABLE !~ /var.*/', true],
    ['$PRESENT_VARIABLE !~ /VAR.*/i', false],
    ['$PRESENT_VARIABLE && "string"', 'string'],
    ['$PRESENT_VARIABLE && $PRESENT_VARIABLE', 'my variable'],
    ['$PRESENT_VARIABLE && $EMPTY_VARIABLE', ''],
    ['$PRESENT_VARIABLE && null', null],
    ['"string" && $PRESENT_VARIABLE', 'my variable'],
    ['$EMPTY_VARIABLE && $PRESENT_VARIABLE', 'my variable'],
    ['null && $PRESENT_VARIABLE', null],
    ['$EMPTY_VARIABLE && "string"', 'string'],
    ['$EMPTY_VARIABLE && $EMPTY_VARIABLE', ''],
    ['"string" && $EMPTY_VARIABLE', ''],
    ['"string" && null', null],
    ['null && "string"', null],
    ['"string" && "string"', 'string'],
    ['null && null', null],
    ['$PRESENT_VARIABLE =~ /my var/ && $EMPTY_VARIABLE =~ /nope/', false],
    ['$EMPTY_VARIABLE == "" && $PRESENT_VARIABLE', 'my variable'],
    ['$EMPTY_VARIABLE == "" && $PRESENT_VARIABLE != "nope"', true],
    ['$PRESENT_VARIABLE && $UNDEFINED_VARIABLE', null],
    ['$UNDEFINED_VARIABLE && $EMPTY_VARIABLE', null],
    ['$UNDEFINED_VARIABLE && $PRESENT_VARIABLE', null],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/full\\/path\\/variable\\/value$/ && $PATH_VARIABLE =~ /path\\/variable/',
      true,
    ],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/bad\\/path\\/variable\\/value$/ && $PATH_VARIABLE =~ /path\\/variable/',
      false,
    ],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/full\\/path\\/variable\\/value$/ && $PATH_VARIABLE =~ /bad\\/path\\/variable/',
      false,
    ],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/bad\\/path\\/variable\\/value$/ && $PATH_VARIABLE =~ /bad\\/path\\/variable/',
      false,
    ],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/full\\/path\\/variable\\/value$/ || $PATH_VARIABLE =~ /path\\/variable/',
      true,
    ],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/bad\\/path\\/variable\\/value$/ || $PATH_VARIABLE =~ /path\\/variable/',
      true,
    ],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/full\\/path\\/variable\\/value$/ || $PATH_VARIABLE =~ /bad\\/path\\/variable/',
      true,
    ],
    [
      '$FULL_PATH_VARIABLE =~ /^\\/a\\/bad\\/path\\/variable\\/value$/ || $PATH_VARIABLE =~ /bad\\/path\\/variable/',
      false,
    ],
    ['$PRESENT_VARIABLE =~ /my var/ || $EMPTY_VARIABLE =~ /nope/', true],
    ['$EMPTY_VARIABLE == "" || $PRESENT_VARIABLE', true],
    ['$PRESENT_VARIABLE != "nope" || $EMPTY_VARIABLE == ""', true],
    ['$PRESENT_VARIABLE && null || $EMPTY_VARIABLE == ""', true],
    ['$PRESENT_VARIABLE || $UNDEFINED_VARIABLE', 'my variable'],
    ['$UNDEFINED_VARIABLE || $PRESENT_VARIABLE', 'my variable'],
    ['$UNDEFINED_VARIABLE == null || $PRESENT_VARIABLE', true],
    ['$PRESENT_VARIABLE || $UNDEFINED_VARIABLE == null', 'my variable'],
    ['($PRESENT_VARIABLE)', 'my variable'],
    ['(($PRESENT_VARIABLE))', 'my variable'],
    ['(($PRESENT_VARIABLE && null) || $EMPTY_VARIABLE == "")', true],
    ['($PRESENT_VARIABLE) && (null || $EMPTY_VARIABLE == "")', true],
    ['("string" || "test") == "string"', true],
    ['(null || ("test" == "string"))', false],
    ['("string" == ("test" && "string"))', true],
    ['("string" == ("test" || "string"))', false],
    ['("string" == "test" || "string")', 'string'],
    ['("string" == ("string" || (("1" == "1") && ("2" == "3"))))', true],
  ];
  it.each(table)('%s evaluates to %p', (expression, expected) => {
    expect(valueOf(expression)).toEqual(expected);
  });
});

describe('evaluateCiExpression: truthfulness (statement_spec.rb #truthful?)', () => {
  it.each([
    ['$PRESENT_VARIABLE == "my variable"', true],
    ["$PRESENT_VARIABLE == 'no match'", false],
    ['$UNDEFINED_VARIABLE == null', true],
    ['$PRESENT_VARIABLE', true],
    ['$UNDEFINED_VARIABLE', false],
    ['$EMPTY_VARIABLE', false],
    ['$PRESENT_VARIABLE =~ /var.*/', true],
    ['$UNDEFINED_VARIABLE =~ /var.*/', false],
    ['$PRESENT_VARIABLE !~ /var.*/', false],
    ['$UNDEFINED_VARIABLE !~ /var.*/', true],
  ] as const)('%s is %p', (expression, expected) => {
    expect(truthOf(expression)).toBe(expected);
  });

  it('treats a blank value as not present, like ActiveSupport', () => {
    expect(truthOf('$BLANK', { BLANK: '  \t' })).toBe(false);
    expect(truthOf('$ZERO', { ZERO: '0' })).toBe(true);
  });

  it('reports "$INVALID = 1" (false in GitLab) as an error at the "="', () => {
    expect(errorOf('$INVALID = 1')).toMatchObject({ position: 9 });
  });

  describe('variables holding patterns (statement_spec.rb "when variables have patterns")', () => {
    const vars = {
      teststring: 'abcde',
      pattern1: '/^ab.*/',
      pattern2: '/^at.*/',
    };
    it.each([
      ['$teststring =~ "abcde"', true],
      ['$teststring =~ $teststring', true],
      ['$teststring =~ $pattern1', true],
      ['$teststring =~ $pattern2', false],
    ] as const)('%s is %p', (expression, expected) => {
      expect(truthOf(expression, vars)).toBe(expected);
    });

    it('looks for the left side inside a right side that is no pattern (Ruby String#scan)', () => {
      expect(truthOf('$A =~ "xxabcxx"', { A: 'abc' })).toBe(true);
      expect(truthOf('$A =~ "abc"', { A: 'xxabcxx' })).toBe(false);
      expect(truthOf('$A !~ "abc"', { A: 'zzz' })).toBe(true);
    });

    it('matches a variable pattern with flags and escaped slashes', () => {
      expect(truthOf('$R =~ $P', { R: 'Review/X', P: '/^review\\/x$/i' })).toBe(
        true,
      );
    });
  });
});

describe('matches (lexeme/matches_spec.rb)', () => {
  it.each([
    ['my-string', '/something/', false],
    ['my-awesome-string', '/awesome.string$/', true],
    ['', '/pattern/', false],
    ['My awesome contents\n\nMy-text-string!\n', '/text-string/', true],
    ['My awesome contents\n\nMy-terrible-string!\n', '/text-string/', false],
    ['My AWESOME content\n', '/awesome/i', true],
    ['My AWESOME content\n', '/terrible/i', false],
    ['abcde', '/^ab.*/', true],
    ['dfg', '/^ab.*/', false],
  ] as const)('%p =~ %s is %p', (text, pattern, expected) => {
    expect(truthOf(`$T =~ $P`, { T: text, P: pattern })).toBe(expected);
  });

  it('is false when the right side is null and true for !~ (return false unless regexp)', () => {
    expect(truthOf('$A =~ $UNDEFINED', { A: 'x' })).toBe(false);
    expect(truthOf('$A !~ null', { A: 'x' })).toBe(true);
    expect(truthOf('$A =~ false', { A: 'x' })).toBe(false);
  });

  it('an empty pattern held by a variable matches an empty string', () => {
    // matches_spec: left and right are empty strings -> true.
    expect(truthOf('$A =~ $B', { A: '', B: '' })).toBe(true);
  });

  it('reports matching against true as an error instead of guessing', () => {
    expect(errorOf('$A =~ true', { A: 'x' })).toMatchObject({ position: 3 });
  });
});

describe('patterns (lexeme/pattern_spec.rb, untrusted_regexp/ruby_syntax.rb)', () => {
  const matches = (text: string, pattern: string) =>
    truthOf(`$T =~ ${pattern}`, { T: text });

  it('scans eagerly to the first unescaped slash: /some .* / pattern/ is "some .* " then junk', () => {
    expect(lexCiExpression('/some .* / pattern/')).toMatchObject({
      error: { position: 11 },
    });
    expect(lexCiExpression('/some .* / "p"')).toMatchObject({
      tokens: [{ kind: 'pattern', source: '/some .* /' }, { kind: 'string' }],
    });
    expect(errorOf('$T =~ /some .* / pattern/')).toMatchObject({
      position: 17,
    });
  });

  it('does not end a pattern at an escaped slash', () => {
    expect(matches('some .* / pattern', '/some .\\* \\/ pattern/')).toBe(true);
    expect(
      matches('some numeric /$ pattern', '/some numeric \\/\\$ pattern/'),
    ).toBe(true);
  });

  it('rejects the empty pattern // and one-character patterns', () => {
    expect(errorOf('$T =~ //')).toMatchObject({ position: 6 });
    expect(errorOf('$T =~ /a/')).toMatchObject({ position: 6 });
    expect(matches('xaby', '/ab/')).toBe(true);
  });

  it('supports the flags i, m, s and U', () => {
    expect(matches('PATTERN', '/pattern/i')).toBe(true);
    expect(matches('a\nb', '/^b$/m')).toBe(true);
    expect(matches('a\nb', '/^b$/')).toBe(false);
    expect(matches('a\nb', '/a.b/s')).toBe(true);
    expect(matches('a\nb', '/a.b/')).toBe(false);
    expect(matches('PAT\nTERN', '/pat.tern/im')).toBe(false);
    expect(matches('PAT\nTERN', '/pat.tern/is')).toBe(true);
  });

  it('leaves an unsupported flag to the lexer, which then fails on it', () => {
    expect(errorOf('$T =~ /pattern/x')).toMatchObject({ position: 15 });
  });

  it('rejects an invalid pattern with its position', () => {
    expect(errorOf('$T =~ / some ( thin/i')).toMatchObject({ position: 6 });
    expect(errorOf('$T =~ /ab)/')).toMatchObject({ position: 6 });
  });

  it('is unanchored unless the pattern anchors itself', () => {
    expect(matches('severe-issues', '/issue/')).toBe(true);
    expect(matches('severe-issues', '/^issue-.*$/')).toBe(false);
  });
});

describe('RE2 dialect', () => {
  const matches = (text: string, pattern: string) =>
    truthOf(`$T =~ $P`, { T: text, P: pattern });
  const rejected = (pattern: string) =>
    // A variable holding an invalid pattern is compared as a string (build_and_evaluate
    // rescues the syntax error), so check the literal form instead.
    'error' in evaluateCiExpression(`$T =~ ${pattern}`, { T: 'x' });

  it('refuses what RE2 refuses: look-around, back-references, possessive and doubled repetition', () => {
    expect(rejected('/a(?=b)/')).toBe(true);
    expect(rejected('/a(?!b)/')).toBe(true);
    expect(rejected('/(?<=a)b/')).toBe(true);
    expect(rejected('/(a)\\1/')).toBe(true);
    expect(rejected('/a**/')).toBe(true);
    expect(rejected('/a++/')).toBe(true);
    expect(rejected('/*ab/')).toBe(true);
    expect(rejected('/a{1001}/')).toBe(true);
    expect(rejected('/a{3,2}/')).toBe(true);
    expect(rejected('/\\Z$/')).toBe(true);
    expect(rejected('/\\e1/')).toBe(true);
  });

  it('understands RE2-only syntax', () => {
    expect(matches('ab', '/\\Aab\\z/')).toBe(true);
    expect(matches('ab\n', '/\\Aab\\z/')).toBe(false);
    expect(matches('x9', '/(?P<n>\\d)/')).toBe(true);
    expect(matches('a1', '/[[:alpha:]][[:digit:]]/')).toBe(true);
    expect(matches('a.b*', '/\\Qa.b*\\E/')).toBe(true);
    expect(matches('axb', '/\\Qa.b\\E/')).toBe(false);
    expect(matches('Ω', '/\\p{Greek}/')).toBe(true);
    expect(matches('x', '/\\pL/')).toBe(true);
    expect(matches('a{b', '/a{b/')).toBe(true);
    expect(matches('A', '/\\x41/')).toBe(true);
    expect(matches('A', '/\\x{41}/')).toBe(true);
    expect(matches('\n', '/\\012/')).toBe(true);
    expect(matches('a-b', '/a\\-b/')).toBe(true);
    expect(matches('aaa', '/^a{2,3}$/')).toBe(true);
    expect(matches(']', '/[]a]/')).toBe(true);
  });

  it('uses RE2 class meanings: \\s has no vertical tab', () => {
    expect(matches('\v', '/\\s/')).toBe(false);
    expect(matches('\t', '/\\s/')).toBe(true);
  });

  it('makes repetitions lazy with U and greedy again with ?', () => {
    const value = (pattern: string) => {
      const r = evaluateCiExpressionValue(`$T =~ ${pattern}`, { T: 'aaa' });
      return r;
    };
    expect(value('/^a+$/U')).toEqual({ value: true });
    expect(matches('<a><b>', '/(?U)<.+>/')).toBe(true);
  });

  it('applies flags given in a group, at the start or further in (RE2 allows both)', () => {
    expect(matches('ABC', '/(?i)abc/')).toBe(true);
    // The RegExp translation refused a later flag group; RE2 (and re2js)
    // apply it from there on.
    expect(rejected('/a(?i)b/')).toBe(false);
    expect(matches('aB', '/a(?i)b/')).toBe(true);
    expect(matches('AB', '/a(?i)b/')).toBe(false);
  });

  it('matches patterns that make a backtracking engine explode, with the right answer', () => {
    const rule = '/^(feature|fix)\\/([a-z0-9]+-?)+$/';
    expect(matches(`feature/${'a'.repeat(27)}_`, rule)).toBe(false);
    expect(matches(`feature/${'a'.repeat(240)}`, rule)).toBe(true);
    expect(matches(`fix/${'ab-'.repeat(80)}`, rule)).toBe(true);
    expect(matches(`${'a'.repeat(250)}!`, '/^(a|a)*$/')).toBe(false);
    expect(matches(`${'a'.repeat(250)}`, '/^(a|a)*$/')).toBe(true);
    expect(matches(`${'a'.repeat(250)}`, '/^(a*)*b$/')).toBe(false);
  });

  it('refuses named back-references and RE2-only limits', () => {
    expect(rejected('/(?P<x>a)(?P=x)/')).toBe(true);
    expect(rejected('/\\k<x>/')).toBe(true);
    expect(rejected('/a{1000}/')).toBe(false);
    // RE2 bounds nested repetition as a whole, not only each count.
    expect(rejected('/((a{100}){100}){100}/')).toBe(true);
  });

  it("names GitLab's error and RE2's reason for an invalid pattern", () => {
    const error = errorOf('$T =~ /(a)\\1/', { T: 'aa' });
    expect(error.message).toMatch(
      /^Invalid regular expression! \/\(a\)\\1\/ at position 6: invalid regular expression: invalid escape sequence/,
    );
    expect(error.position).toBe(6);
  });
});

describe('pattern limits', () => {
  it('refuses a pattern past the length or program size the portal evaluates', () => {
    expect(
      errorOf(`$T =~ /${'a'.repeat(PATTERN_LIMITS.maxPatternLength + 1)}/`, {
        T: 'a',
      }).message,
    ).toContain(`at most ${PATTERN_LIMITS.maxPatternLength}`);
    expect(
      errorOf('$T =~ /[a-z]{1000}[a-z]{1000}[a-z]{1000}/', { T: 'a' }).message,
    ).toContain(`at most ${PATTERN_LIMITS.maxProgramSize}`);
  });

  it('refuses to match a value past maxSubjectLength, at the operator', () => {
    const long = 'a'.repeat(PATTERN_LIMITS.maxSubjectLength + 1);
    const error = errorOf('$T =~ /a+b/', { T: long });
    expect(error).toMatchObject({ position: 3 });
    expect(error.message).toContain(
      `has ${long.length} characters; at most ${PATTERN_LIMITS.maxSubjectLength}`,
    );
    expect(
      truthOf('$T =~ /a+$/', {
        T: long.slice(1),
      }),
    ).toBe(true);
  });

  it('matches a large pattern against fewer characters, still any GitLab name', () => {
    // 1,999 RE2 instructions: the largest pattern the limits take.
    const large = '/[a-z]{998}[a-z]{998}$/';
    const name = 'a'.repeat(PATTERN_LIMITS.maxNameLength);
    expect(truthOf(`$T =~ ${large}`, { T: name })).toBe(false);
    expect(errorOf(`$T =~ ${large}`, { T: `${name}a` }).message).toContain(
      `at most ${PATTERN_LIMITS.maxNameLength} are matched against this pattern`,
    );
  });
});

describe('grammar errors (statement_spec.rb, lexer_spec.rb, parser_spec.rb)', () => {
  it.each([
    ['$VAR "text"', 5],
    ['== "123"', 0],
    ['$VAR ==', 5],
    ['12345', 0],
    ['', 0],
    ['   ', 0],
    ['()', 0],
    ['($VAR', 0],
    ['$VAR)', 4],
    ['$VAR == "a" &&', 12],
    ['$VAR & "a"', 5],
    ['$[[ inputs.x ]] == "a"', 0],
    ['"unterminated', 0],
    ['nullx', 4],
    ['truex == "a"', 0],
  ] as const)('%p fails at position %p', (expression, position) => {
    expect(errorOf(expression)).toMatchObject({ position });
  });

  it('accepts a lone string literal (the newest lexer does)', () => {
    expect(valueOf('"some string"')).toBe('some string');
  });

  it('scans without white space and across lines', () => {
    expect(
      truthOf('$PRESENT_VARIABLE=="my variable"&&($EMPTY_VARIABLE==""||null)'),
    ).toBe(true);
    expect(truthOf('$PRESENT_VARIABLE\n  == "my variable"')).toBe(true);
  });

  it('knows ${VAR} as a variable too', () => {
    expect(truthOf('${PRESENT_VARIABLE} == "my variable"')).toBe(true);
  });

  it('knows true and false literals', () => {
    expect(valueOf('true')).toBe(true);
    expect(valueOf('$PRESENT_VARIABLE == true')).toBe(false);
    expect(truthOf('false || $PRESENT_VARIABLE')).toBe(true);
  });

  it('binds && tighter than ||, and comparisons tighter than both', () => {
    expect(truthOf('"a" == "b" && null || "x" == "x"')).toBe(true);
    expect(truthOf('"x" == "x" || "a" && null')).toBe(true);
    expect(valueOf('null || "a" && "b"')).toBe('b');
    // left associative: ("a" == "a") == true
    expect(valueOf('"a" == "a" == true')).toBe(true);
  });

  it('stops after 99 tokens like GitLab (MAX_TOKENS = 100 scans)', () => {
    const of = (n: number) => Array.from({ length: n }, () => '(').join('');
    expect(lexCiExpression(of(99))).toMatchObject({
      tokens: expect.any(Array),
    });
    expect(lexCiExpression(of(100))).toMatchObject({
      error: { position: 100 },
    });
    expect(lexCiExpression(`${of(100)}   `)).toMatchObject({ error: {} });
  });

  it('names the position in the message', () => {
    expect(errorOf('$A == "x" $B').message).toContain('position 10');
  });
});

describe('property: never throws', () => {
  const alphabet = fc.constantFrom(
    '$',
    '{',
    '}',
    '(',
    ')',
    '"',
    "'",
    '/',
    '\\',
    '=',
    '!',
    '~',
    '&',
    '|',
    ' ',
    'a',
    'Z',
    '_',
    '1',
    'i',
    'n',
    'u',
    'l',
    'null',
    'true',
    '[',
    ']',
    '*',
    '+',
    '?',
    '.',
    ':',
    '^',
    'P',
    '<',
    '>',
    '\n',
    'é',
    '😀',
  );
  const text = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.array(alphabet, { maxLength: 40 }).map(parts => parts.join('')),
  );

  it('parses and evaluates arbitrary input without throwing', () => {
    fc.assert(
      fc.property(
        text,
        fc.dictionary(fc.string(), fc.string()),
        (expression, vars) => {
          const result = evaluateCiExpression(expression, vars);
          expect('value' in result || 'error' in result).toBe(true);
          const position = 'error' in result ? result.error.position ?? 0 : 0;
          expect(position).toBeGreaterThanOrEqual(0);
          expect(position).toBeLessThanOrEqual(expression.length);
          parseCiExpression(expression);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('evaluates variables holding arbitrary patterns without throwing', () => {
    fc.assert(
      fc.property(text, text, (value, pattern) => {
        const result = evaluateCiExpression('$A =~ $B || $A !~ $B', {
          A: value,
          B: `/${pattern}/`,
        });
        expect('value' in result || 'error' in result).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('lexCiExpression (lexer_spec.rb)', () => {
  const texts = (expression: string) => {
    const result = lexCiExpression(expression);
    if ('error' in result) throw new Error(result.error.message);
    return result.tokens.map(t => t.text);
  };

  it.each([
    ['$VARIABLE', ['$VARIABLE']],
    ['\t$VARIABLE ', ['$VARIABLE']],
    ['$VARIABLE1 $VARIABLE2', ['$VARIABLE1', '$VARIABLE2']],
    ['$VARIABLE "text" "value"', ['$VARIABLE', '"text"', '"value"']],
    ['$VARIABLE == "text"', ['$VARIABLE', '==', '"text"']],
    [
      '$PRESENT_VARIABLE =~ /my var/ && $EMPTY_VARIABLE =~ /nope/',
      [
        '$PRESENT_VARIABLE',
        '=~',
        '/my var/',
        '&&',
        '$EMPTY_VARIABLE',
        '=~',
        '/nope/',
      ],
    ],
    [
      '$EMPTY_VARIABLE == "" && $PRESENT_VARIABLE != "nope"',
      [
        '$EMPTY_VARIABLE',
        '==',
        '""',
        '&&',
        '$PRESENT_VARIABLE',
        '!=',
        '"nope"',
      ],
    ],
    [
      '$PRESENT_VARIABLE && null || $EMPTY_VARIABLE == ""',
      ['$PRESENT_VARIABLE', '&&', 'null', '||', '$EMPTY_VARIABLE', '==', '""'],
    ],
    [
      '($PRESENT_VARIABLE && (null || $EMPTY_VARIABLE == ""))',
      [
        '(',
        '$PRESENT_VARIABLE',
        '&&',
        '(',
        'null',
        '||',
        '$EMPTY_VARIABLE',
        '==',
        '""',
        ')',
        ')',
      ],
    ],
  ])('%s', (expression, tokens) => {
    expect(texts(expression)).toEqual(tokens);
  });

  it('fails on unknown tokens with their position', () => {
    expect(lexCiExpression('$V1 123 $V2')).toMatchObject({
      error: { position: 4 },
    });
  });
});
