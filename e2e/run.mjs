#!/usr/bin/env node
// Runs the browser tests: installs Chromium if missing, builds the app,
// starts the portal (backend serving the built app, simulator embedded) on
// the e2e ports, runs e2e/tests with node's test runner, and stops the portal.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

async function isListening() {
  try {
    await fetch(portalUrl);
    return true;
  } catch {
    return false;
  }
}

async function waitForReadiness(backend, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (backend.exitCode !== null) {
      throw new Error(
        `The portal backend exited early (code ${backend.exitCode}); see e2e/artifacts/backend.log`,
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
    } s; see e2e/artifacts/backend.log`,
  );
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

async function main() {
  run('bash', ['scripts/ensure-chromium.sh']);
  if (process.env.E2E_SKIP_BUILD !== '1') {
    console.log('Building the app for the browser tests...');
    run('npx', ['backstage-cli', 'package', 'build'], {
      cwd: join(root, 'packages/app'),
    });
  }

  const log = openSync(join(artifacts, 'backend.log'), 'w');
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
    ],
    {
      cwd: join(root, 'packages/backend'),
      detached: true,
      stdio: ['ignore', log, log],
    },
  );
  const cleanup = () => stop(backend);
  process.on('exit', cleanup);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));

  console.log('Starting the portal on', portalUrl);
  await waitForReadiness(backend, 180_000);

  // `node e2e/run.mjs ci-access` runs only the test files whose name contains it.
  const only = process.argv[2];
  const tests = readdirSync(join(root, 'e2e/tests'))
    .filter(name => name.endsWith('.test.mjs'))
    .filter(name => !only || name.includes(only))
    .map(name => join('e2e/tests', name));
  const result = spawnSync(
    process.execPath,
    [
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./e2e/lib/count-reporter.mjs',
      `--test-reporter-destination=${join(artifacts, 'e2e-summary.json')}`,
      ...tests,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PORTAL_URL: portalUrl },
    },
  );
  cleanup();
  const counts = JSON.parse(
    readFileSync(join(artifacts, 'e2e-summary.json'), 'utf8'),
  );
  console.log(
    `Browser tests: ${counts.passed} passed, ${counts.failed} failed`,
  );
  process.exitCode = result.status === 0 ? 0 : 1;
}

main().catch(error => {
  console.error(error.message);
  process.exitCode = 1;
});
