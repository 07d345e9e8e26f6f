#!/usr/bin/env node
// Runs the browser tests: installs Chromium if missing, builds the app,
// starts the portal (backend serving the built app, simulator embedded) on
// the e2e ports, runs e2e/tests with node's test runner, and stops the portal.
// Then starts it again on a throwaway PostgreSQL cluster and runs
// e2e/postgres against it.
import { spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './lib/postgres.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = join(root, 'e2e', 'artifacts');
const portalUrl = 'http://localhost:7107';
mkdirSync(artifacts, { recursive: true });

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    cwd: root,
    ...options,
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.status}`,
    );
  }
}

async function waitForReadiness(backend, timeoutMs, logName) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (backend.exitCode !== null) {
      throw new Error(
        `The portal backend exited early (code ${backend.exitCode}); see e2e/artifacts/${logName}`,
      );
    }
    try {
      const response = await fetch(
        `${portalUrl}/.backstage/health/v1/readiness`,
      );
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  throw new Error(
    `The portal was not ready within ${
      timeoutMs / 1000
    } s; see e2e/artifacts/${logName}`,
  );
}

async function waitForExit(backend) {
  if (backend.exitCode !== null || backend.signalCode !== null) return;
  await Promise.race([
    new Promise(resolve => backend.once('exit', resolve)),
    new Promise(resolve => setTimeout(resolve, 15_000)),
  ]);
}

function stop(backend) {
  if (backend.exitCode === null) {
    try {
      process.kill(-backend.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** Starts the portal with the e2e overlay (and more config files); resolves once ready. */
async function startPortal(logName, extraConfigs = []) {
  const log = openSync(join(artifacts, logName), 'w');
  const backend = spawn(
    'npx',
    [
      'backstage-cli',
      'package',
      'start',
      '--config',
      '../../app-config.yaml',
      '--config',
      '../../e2e/app-config.e2e.yaml',
      ...extraConfigs.flatMap(file => ['--config', file]),
    ],
    {
      cwd: join(root, 'packages/backend'),
      detached: true,
      stdio: ['ignore', log, log],
    },
  );
  process.on('exit', () => stop(backend));
  console.log('Starting the portal on', portalUrl);
  await waitForReadiness(backend, 180_000, logName);
  return backend;
}

/** Runs test files with node's test runner; returns {passed, failed, skipped}. */
function runTests(files, summaryName, env = {}) {
  const summary = join(artifacts, summaryName);
  spawnSync(
    process.execPath,
    [
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./e2e/lib/count-reporter.mjs',
      `--test-reporter-destination=${summary}`,
      ...files,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PORTAL_URL: portalUrl, ...env },
    },
  );
  try {
    return JSON.parse(readFileSync(summary, 'utf8'));
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

async function main() {
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  run('bash', ['scripts/ensure-chromium.sh']);
  if (process.env.E2E_SKIP_BUILD !== '1') {
    console.log('Building the app for the browser tests...');
    run('npx', ['backstage-cli', 'package', 'build'], {
      cwd: join(root, 'packages/app'),
    });
  }

  // `node e2e/run.mjs ci-access` runs only the test files whose name
  // contains it, on SQLite.
  // `node e2e/run.mjs restart` runs only the restart phase below.
  const only = process.argv[2];
  const tests = readdirSync(join(root, 'e2e/tests'))
    .filter(name => name.endsWith('.test.mjs'))
    .filter(name => !only || name.includes(only))
    .map(name => join('e2e/tests', name));
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const add = more => {
    for (const key of Object.keys(counts)) counts[key] += more[key] ?? 0;
  };
  if (tests.length > 0) {
    const backend = await startPortal('backend.log');
    add(runTests(tests, 'e2e-summary-sqlite.json'));
    stop(backend);
    await waitForExit(backend);
  }
  if (!only || only === 'restart') add(await acrossARestart());
  if (only) {
    finish(counts);
    return;
  }

  // The same portal on PostgreSQL, as backend.database configures it.
  const postgres = await startPostgres();
  try {
    const overlay = join(artifacts, 'app-config.postgres.yaml');
    writeFileSync(
      overlay,
      `backend:\n  database:\n    client: pg\n    connection: ${JSON.stringify(
        postgres.connection,
      )}\n`,
    );
    const onPostgres = await startPortal('backend-postgres.log', [overlay]);
    const pgCounts = runTests(
      ['e2e/postgres/portal-on-postgres.test.mjs'],
      'e2e-summary-postgres.json',
      { PG_PORT: String(postgres.connection.port) },
    );
    stop(onPostgres);
    await waitForExit(onPostgres);
    add(pgCounts);
  } finally {
    postgres.stop();
  }

  finish(counts);
}

/**
 * The timeline outlives the backend: a portal whose database is a SQLite
 * file records a health transition (e2e/restart/before-restart), stops,
 * starts again on the same file, and shows it (after-restart).
 */
async function acrossARestart() {
  const directory = join(artifacts, 'sqlite-restart');
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const overlay = join(artifacts, 'app-config.sqlite-file.yaml');
  writeFileSync(
    overlay,
    `backend:\n  database:\n    client: better-sqlite3\n    connection:\n      directory: ${JSON.stringify(
      directory,
    )}\n`,
  );
  const first = await startPortal('backend-restart-before.log', [overlay]);
  const before = runTests(
    ['e2e/restart/before-restart.test.mjs'],
    'e2e-summary-restart-before.json',
  );
  stop(first);
  await waitForExit(first);
  const restartedAt = Date.now();
  const second = await startPortal('backend-restart-after.log', [overlay]);
  const afterRestart = runTests(
    ['e2e/restart/after-restart.test.mjs'],
    'e2e-summary-restart-after.json',
    { RESTARTED_AT: String(restartedAt) },
  );
  stop(second);
  await waitForExit(second);
  return Object.fromEntries(
    Object.keys(before).map(key => [key, before[key] + afterRestart[key]]),
  );
}

function finish(counts) {
  writeFileSync(
    join(artifacts, 'e2e-summary.json'),
    `${JSON.stringify(counts)}\n`,
  );
  console.log(
    `Browser tests: ${counts.passed} passed, ${counts.failed} failed`,
  );
  process.exitCode = counts.failed === 0 ? 0 : 1;
}

main().catch(error => {
  console.error(error.message);
  process.exitCode = 1;
});
