#!/usr/bin/env node
// `npm run pack:plugins [-- <dir>]`: the plugin packages as the
// tarballs npm would publish (default dir: packs/). Builds declarations
// (tsc) and each package (backstage-cli package build) first; `npm pack`
// then runs Backstage's prepack/postpack, which point main, types and
// exports at dist/ in the tarball and restore package.json afterwards.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PLUGIN_DIRS = [
  'plugins/gitlab-env-common',
  'plugins/gitlab-env-backend',
  'plugins/gitlab-env-frontend',
  'plugins/kubernetes-backend-module-gitlab-env',
];

function run(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.status}`,
    );
  }
}

/** Each plugin's package name and the path `npm pack` gives its tarball in `dir`. */
export function tarballPaths(dir) {
  return Object.fromEntries(
    PLUGIN_DIRS.map(pluginDir => {
      const { name, version } = JSON.parse(
        readFileSync(join(root, pluginDir, 'package.json'), 'utf8'),
      );
      const file = `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
      return [name, join(dir, file)];
    }),
  );
}

/** Packs the plugins into `dir`; returns each package name's tarball path. */
export function packPlugins(dir) {
  mkdirSync(dir, { recursive: true });
  run('npx', ['tsc']);
  for (const pluginDir of PLUGIN_DIRS) {
    const cwd = join(root, pluginDir);
    run('npx', ['backstage-cli', 'package', 'build'], cwd);
    run('npm', ['pack', '--pack-destination', dir], cwd);
  }
  return tarballPaths(dir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(root, 'packs'));
  const tarballs = packPlugins(dir);
  for (const [name, file] of Object.entries(tarballs)) {
    console.log(`${name}: ${file}`);
  }
}
