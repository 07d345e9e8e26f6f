#!/usr/bin/env node
// API reports of the published packages (`report*.api.md` beside each
// package.json), made by Backstage's repo-tools from the declarations `tsc`
// emits into dist-types/.
//
//   npm run api-reports            regenerate them (runs tsc first)
//   node scripts/api-reports.mjs --check [--no-tsc]
//                                  fail when a report differs from the code
//
// repo-tools' own `--tsc` flag shells out to yarn, which this npm workspace
// does not have, so tsc runs here.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PUBLISHED_PACKAGES = [
  'plugins/gitlab-env-common',
  'plugins/gitlab-env-backend',
  'plugins/gitlab-env-frontend',
  'plugins/kubernetes-backend-module-gitlab-env',
];

// ae-wrong-input-file-type: sibling workspace packages resolve to their
// src/*.ts through the workspace link; Backstage's own repository omits it
// for the same reason. ae-undocumented: members without a doc comment are
// listed in the report as "(undocumented)" instead of failing it.
const OMITTED_MESSAGES = 'ae-wrong-input-file-type,ae-undocumented';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const runTsc = !args.includes('--no-tsc');

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
  });
  return result.status ?? 1;
}

/** The committed report files, by path. */
function readReports() {
  const reports = new Map();
  for (const pkg of PUBLISHED_PACKAGES) {
    for (const name of readdirSync(join(root, pkg))) {
      if (/^report.*\.api\.md$/.test(name)) {
        const path = join(root, pkg, name);
        reports.set(path, readFileSync(path, 'utf8'));
      }
    }
  }
  return reports;
}

/**
 * API Extractor prints a union's members in the order the type checker
 * happens to hold them, which differs between runs of the same code; the
 * members of each union are compared as a set.
 */
function normalized(report) {
  const out = [];
  let run = [];
  const flush = () => {
    out.push(...run.sort());
    run = [];
  };
  for (const line of report.split('\n')) {
    if (/^\s*\| /.test(line)) run.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join('\n');
}

let status = runTsc ? run('npx', ['tsc']) : 0;
const committed = check ? readReports() : undefined;
if (status === 0) {
  status = run('npx', [
    'backstage-repo-tools',
    'api-reports',
    '--validate-release-tags',
    '-o',
    OMITTED_MESSAGES,
    ...PUBLISHED_PACKAGES,
  ]);
}
if (committed) {
  // Compare, then put the committed files back: a check changes nothing.
  const generated = readReports();
  const changed = [...generated.keys()].filter(
    path =>
      !committed.has(path) ||
      normalized(committed.get(path)) !== normalized(generated.get(path)),
  );
  for (const [path, text] of committed) writeFileSync(path, text);
  if (changed.length > 0) {
    console.error(`\nReports that differ: ${changed.join(', ')}`);
    status = status || 1;
  }
}
if (status !== 0) {
  console.error(
    check
      ? '\nThe API reports do not match the code (or an export lacks a release tag such as @public or @alpha). ' +
          'Run `npm run api-reports` and commit the changed plugins/*/report*.api.md files.'
      : '\nAPI report generation failed; see the messages above.',
  );
}
process.exitCode = status;
