#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the simulator needs no build step.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const tsx = require.resolve('tsx/cli');
const child = spawn(
  process.execPath,
  [tsx, join(here, '../src/cli.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
child.on('exit', code => process.exit(code ?? 1));
