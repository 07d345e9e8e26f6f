/* eslint-disable no-console */
// What hostile patterns cost: each `=~` rule and wildcard of issue #23's
// findings (and a few more of the classic kinds) against a plain pattern on
// the same input, evaluated the way the backend and the try-it box do, timed
// in the same run. Then what the JavaScript RegExp the engine used to build
// for the same pattern costs at growing lengths, stopped before it takes
// long, with the growth per character; and the slowest pattern the limits
// still accept. Timings are printed, never asserted.
// Run: npm run bench:patterns -w plugins/gitlab-env-common
import { evaluateCiExpression, PATTERN_LIMITS, wildcardMatches } from '../src';
import { RE2JS } from 're2js';
import { time } from './timing';

const NAME = PATTERN_LIMITS.maxNameLength;
const RUNS = 50;

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

function expression(rule: string, value: string): () => void {
  return () => {
    const result = evaluateCiExpression(`$V =~ ${rule}`, { V: value });
    if ('error' in result) throw new Error(result.error.message);
  };
}

interface Case {
  name: string;
  input: string;
  hostile: () => unknown;
  plain: () => unknown;
}

const branch = `feature/${'a'.repeat(NAME - 9)}_`;
const as = 'a'.repeat(NAME);
const cases: Case[] = [
  {
    name: '=~ /^(feature|fix)\\/([a-z0-9]+-?)+$/ (finding 1)',
    input: `feature/a…a_ (${branch.length} chars)`,
    hostile: expression('/^(feature|fix)\\/([a-z0-9]+-?)+$/', branch),
    plain: expression('/^feature\\//', branch),
  },
  {
    name: '=~ /^(a|a)*$/',
    input: `a…a! (${NAME} chars)`,
    hostile: expression('/^(a|a)*$/', `${as.slice(1)}!`),
    plain: expression('/^a/', `${as.slice(1)}!`),
  },
  {
    name: '=~ /^(a*)*b$/ (nested quantifiers)',
    input: `a…a (${NAME} chars)`,
    hostile: expression('/^(a*)*b$/', as),
    plain: expression('/^a/', as),
  },
  {
    name: '=~ /(.*a){20}$/',
    input: `a…a (${NAME} chars)`,
    hostile: expression('/(.*a){20}$/', as),
    plain: expression('/^a/', as),
  },
  {
    name: 'wildcard a*a*a*a*a*b (finding 1)',
    input: `a…a (${NAME} chars)`,
    hostile: () => wildcardMatches('a*a*a*a*a*b', as),
    plain: () => wildcardMatches('a*', as),
  },
  {
    name: 'wildcard (*a)×100*b',
    input: `a…a (${NAME} chars)`,
    hostile: () => wildcardMatches(`${'*a'.repeat(100)}*b`, as),
    plain: () => wildcardMatches('a*', as),
  },
  {
    name: 'glob (?*)×100b',
    input: `a…a (${NAME} chars)`,
    hostile: () =>
      wildcardMatches(`${'?*'.repeat(100)}b`, as, { singleCharacter: true }),
    plain: () => wildcardMatches('a*', as, { singleCharacter: true }),
  },
];

console.log(
  `Hostile patterns now (re2js for =~, the linear wildcard matcher), median of ${RUNS} runs, against a plain pattern on the same input:`,
);
console.log(
  ['case'.padEnd(48), 'input'.padEnd(24), 'hostile', 'plain', 'ratio'].join(
    ' | ',
  ),
);
for (const c of cases) {
  const hostile = time(c.hostile, RUNS);
  const plain = time(c.plain, RUNS);
  console.log(
    [
      c.name.padEnd(48),
      c.input.padEnd(24),
      us(hostile).padStart(11),
      us(plain).padStart(10),
      `${(hostile / plain).toFixed(1)}x`,
    ].join(' | '),
  );
}

// Before: the RegExp the translation built for the same pattern (its
// output, copied), on JavaScript's backtracking engine. Lengths grow until one run passes the cap; the time
// at the full length is extrapolated from the last two, exponentially for
// nested quantifiers, polynomially for stars.
const CAP_MS = 400;
function timeOnce(work: () => unknown): number {
  const started = performance.now();
  work();
  const ms = performance.now() - started;
  return ms < 50 ? time(work, 5) : ms;
}

function before(
  name: string,
  regexp: RegExp,
  plain: RegExp,
  input: (n: number) => string,
  lengths: number[],
  full: { length: number; growth: 'exponential' | 'polynomial' },
) {
  console.log(`\nBefore, ${name} as a JavaScript RegExp ${regexp}:`);
  const points: Array<{ n: number; ms: number }> = [];
  for (const n of lengths) {
    const text = input(n);
    const ms = timeOnce(() => regexp.test(text));
    const plainMs = time(() => plain.test(text), RUNS);
    console.log(
      `  ${String(n).padStart(3)} chars: ${ms.toFixed(1)} ms, ${(
        ms / plainMs
      ).toExponential(1)}x the plain ${plain}`,
    );
    points.push({ n, ms });
    if (ms > CAP_MS) break;
  }
  const [a, b] = points.slice(-2);
  if (!a || !b || full.length <= b.n) return;
  const at =
    full.growth === 'exponential'
      ? b.ms * (b.ms / a.ms) ** ((full.length - b.n) / (b.n - a.n))
      : b.ms *
        (full.length / b.n) ** (Math.log(b.ms / a.ms) / Math.log(b.n / a.n));
  console.log(
    `  extrapolated (${full.growth}) to ${full.length} chars: about ${(
      at / 1000
    ).toFixed(1)} s`,
  );
}

before(
  'finding 1',
  /(?:^)(feature|fix)\u{2f}([a-z0-9]+\u{2d}?)+(?:$)/u,
  /(?:^)feature\u{2f}/u,
  n => `feature/${'a'.repeat(n)}_`,
  [16, 18, 20, 22, 24, 26],
  { length: 27, growth: 'exponential' },
);
before(
  'the wildcard a*a*a*a*a*b',
  /^a.*a.*a.*a.*a.*b$/,
  /^a.*$/,
  n => 'a'.repeat(n),
  [32, 64, 96, 128, 160, 192],
  { length: NAME, growth: 'polynomial' },
);

// Why maxMatchWork: the largest program of Unicode classes (each step a
// range search) on a GitLab name, which the limits accept, and on the
// longest value, which they refuse (timed on re2js directly).
const largest = '\\pL{995}\\pL{995}$';
const text = (length: number) => `${'é'.repeat(length - 1)}!`;
const direct = RE2JS.compile(largest);
console.log(
  `\nThe largest program, /${largest}/ (${direct.programSize()} instructions): ${time(
    expression(`/${largest}/`, text(NAME)),
    5,
  ).toFixed(1)} ms on ${NAME} chars (accepted); ${time(
    () => direct.test(text(PATTERN_LIMITS.maxSubjectLength)),
    3,
  ).toFixed(1)} ms on ${
    PATTERN_LIMITS.maxSubjectLength
  } chars (refused by maxMatchWork)`,
);
