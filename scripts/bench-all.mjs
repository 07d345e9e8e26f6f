#!/usr/bin/env node
// `npm run bench`: every workspace's benchmark, one after the other (they
// measure time, so they must not share the two cores with each other).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const workspaces = [
  'plugins/gitlab-env-common',
  'plugins/gitlab-env-backend',
  'plugins/gitlab-env-frontend',
  'packages/gitlab-simulator',
];
let failed = 0;
for (const workspace of workspaces) {
  const manifest = JSON.parse(
    readFileSync(join(root, workspace, 'package.json'), 'utf8'),
  );
  const benches = Object.keys(manifest.scripts ?? {}).filter(
    name => name === 'bench' || name.startsWith('bench:'),
  );
  for (const script of benches) {
    console.log(`\n=== ${workspace}: npm run ${script}`);
    const result = spawnSync(
      'npm',
      ['run', script, '-w', workspace, '--silent'],
      { cwd: root, stdio: 'inherit' },
    );
    if (result.status !== 0) failed += 1;
  }
}
process.exitCode = failed === 0 ? 0 : 1;
