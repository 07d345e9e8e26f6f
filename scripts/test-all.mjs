#!/usr/bin/env node
// `npm test`: every check this repository has, in order of speed, each run
// even when an earlier one fails so one run reports everything. Ends with
// one summary line: "<N> passed, <N> failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, 'e2e', 'artifacts');
mkdirSync(reports, { recursive: true });
const jestReport = join(reports, 'jest-results.json');
const e2eReport = join(reports, 'e2e-summary.json');

const steps = [
  { name: 'lint', command: ['npx', 'backstage-cli', 'repo', 'lint'] },
  // tsc writes declarations to dist-types/ (git-ignored): the API report
  // check below reads them.
  { name: 'type check', command: ['npx', 'tsc'] },
  {
    name: 'API reports',
    command: ['node', 'scripts/api-reports.mjs', '--check'],
    // the type check step of the same run has just emitted the declarations
    skipTscAfter: 'type check',
  },
  // The plugin packages as npm would publish them: every entry point of each
  // tarball's manifest must be a file in it. This stands in for the adopter
  // test (npm run test:adopter), which CI does not run: it took 7.5 to 24
  // minutes on the shared 2-core machines depending on their load, most of it
  // the created app's own yarn install and bundling, and CI's total must stay
  // under 25 minutes.
  { name: 'package check', command: ['node', 'scripts/check-packs.mjs'] },
  // The engine's sources import in one direction (types, k8s, health, graph,
  // gitops, ...): a cycle, type-only imports included, fails.
  {
    name: 'import cycles',
    command: [
      'node',
      'scripts/import-cycles.mjs',
      'plugins/gitlab-env-common/src',
    ],
  },
  {
    name: 'unit and integration tests',
    command: [
      'npx',
      'backstage-cli',
      'repo',
      'test',
      '--watchAll=false',
      '--json',
      `--outputFile=${jestReport}`,
    ],
    report: jestReport,
    count: report => ({
      passed: report.numPassedTests,
      failed: report.numFailedTests + report.numRuntimeErrorTestSuites,
    }),
  },
  {
    name: 'browser tests',
    command: ['node', 'e2e/run.mjs'],
    report: e2eReport,
    count: report => report,
  },
];

const only = process.env.TEST_STEPS?.split(',');
if (!only || only.some(name => 'unit and integration tests'.startsWith(name))) {
  // The simulator's kubectl test runs the real kubectl; where it cannot be installed the test says so and skips.
  spawnSync('bash', ['scripts/ensure-kubectl.sh'], {
    cwd: root,
    stdio: 'inherit',
  });
}
let passed = 0;
let failed = 0;
const lines = [];
const succeeded = new Set();
for (const step of steps) {
  if (only && !only.some(name => step.name.startsWith(name))) continue;
  if (step.report) rmSync(step.report, { force: true });
  if (step.skipTscAfter && succeeded.has(step.skipTscAfter)) {
    step.command.push('--no-tsc');
  }
  console.log(`\n=== ${step.name}: ${step.command.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(step.command[0], step.command.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CI: process.env.CI ?? 'true' },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const ok = result.status === 0;
  if (ok) succeeded.add(step.name);
  if (step.count && existsSync(step.report)) {
    const counts = step.count(JSON.parse(readFileSync(step.report, 'utf8')));
    passed += counts.passed;
    failed += counts.failed;
    if (!ok && counts.failed === 0) failed += 1; // the step failed outside its tests
    lines.push(
      `${step.name}: ${counts.passed} passed, ${counts.failed} failed (${seconds} s)`,
    );
  } else {
    if (ok) passed += 1;
    else failed += 1;
    lines.push(`${step.name}: ${ok ? 'ok' : 'FAILED'} (${seconds} s)`);
  }
}
console.log(`\n=== summary\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
