#!/usr/bin/env node
// The packaging check `npm test` runs (the full adopter test is too long for
// CI, see scripts/test-all.mjs): packs the plugin packages as they would be
// published and checks each tarball's manifest against its own files, the
// way an adopter's tsc and Node resolve them: main, module, types, every
// exports target and typesVersions entry must be a file in the tarball and
// none may point into src/; a declared configSchema must be there too.
// Then it type-checks a file importing every entry point of the tarballs
// with library checks on (`skipLibCheck: false`, as create-app's `tsc:full`
// runs), so the published declarations must hold together on their own.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPlugins } from './pack-plugins.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function targetsOf(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(targetsOf);
  if (value && typeof value === 'object') {
    // `backstage` names the feature type of an entry point, not a file
    return Object.entries(value)
      .filter(([key]) => key !== 'backstage')
      .flatMap(([, target]) => targetsOf(target));
  }
  return [];
}

export function problemsOf(manifest, files) {
  const present = new Set(files.map(file => file.replace(/^package\//, '')));
  const targets = [
    ...['main', 'module', 'types', 'configSchema'].flatMap(key =>
      manifest[key] ? [[key, manifest[key]]] : [],
    ),
    ...Object.entries(manifest.exports ?? {}).flatMap(([entry, value]) =>
      targetsOf(value).map(target => [`exports["${entry}"]`, target]),
    ),
    ...Object.entries(manifest.typesVersions?.['*'] ?? {}).flatMap(
      ([entry, value]) =>
        targetsOf(value).map(target => [`typesVersions["${entry}"]`, target]),
    ),
  ];
  const problems = [];
  for (const [field, target] of targets) {
    const path = target.replace(/^\.\//, '');
    if (path.startsWith('src/')) {
      problems.push(`${field} points into src/: ${target}`);
    } else if (!present.has(path)) {
      problems.push(`${field} names ${target}, which is not in the tarball`);
    }
  }
  if (!manifest.exports?.['.']) problems.push('no exports["."]');
  return problems;
}

/** The module specifiers an adopter can import from a package: its exports but package.json. */
export function entryPointsOf(manifest) {
  return Object.keys(manifest.exports ?? { '.': manifest.main })
    .filter(entry => entry !== './package.json')
    .map(entry =>
      entry === '.'
        ? manifest.name
        : `${manifest.name}/${entry.replace(/^\.\//, '')}`,
    );
}

/**
 * Type-checks the tarballs' declarations as an adopter's app does: each
 * package unpacked under node_modules of a directory inside the repository
 * (so their dependencies resolve to the repository's), and one file
 * importing every entry point, compiled with Backstage's tsconfig and
 * `skipLibCheck: false`. Gives the problems tsc reports in our packages'
 * declarations or that file.
 */
export function declarationProblems(tarballs, manifests) {
  const dir = join(root, 'node_modules', '.cache', 'gitlab-env-declarations');
  rmSync(dir, { recursive: true, force: true });
  try {
    for (const [name, tarball] of Object.entries(tarballs)) {
      const into = join(dir, 'node_modules', name);
      mkdirSync(into, { recursive: true });
      execFileSync('tar', [
        '-xzf',
        tarball,
        '-C',
        into,
        '--strip-components=1',
      ]);
    }
    const entries = Object.values(manifests).flatMap(entryPointsOf);
    writeFileSync(
      join(dir, 'adopter.ts'),
      entries
        .map((entry, i) => `import * as entry${i} from '${entry}';`)
        .concat(
          `export const entries = [${entries
            .map((_, i) => `entry${i}`)
            .join(', ')}];`,
        )
        .join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: relative(
          dir,
          join(root, 'node_modules/@backstage/cli/config/tsconfig.json'),
        ),
        compilerOptions: {
          skipLibCheck: false,
          noEmit: true,
          incremental: false,
          emitDeclarationOnly: false,
        },
        files: ['adopter.ts'],
      }),
    );
    const result = spawnSync('npx', ['tsc', '-p', dir, '--pretty', 'false'], {
      cwd: root,
      encoding: 'utf8',
    });
    const lines = `${result.stdout}${result.stderr}`.split('\n');
    const ours = lines.filter(
      line =>
        /error TS/.test(line) &&
        (line.includes('@gitlab-env/') ||
          line.startsWith('adopter.ts') ||
          line.includes('/adopter.ts')),
    );
    const others = lines.filter(
      line => /error TS/.test(line) && !ours.includes(line),
    );
    if (others.length > 0)
      console.log(
        `declarations: ${
          others.length
        } error(s) in other packages' declarations (not ours):\n  ${others
          .slice(0, 5)
          .join('\n  ')}`,
      );
    if (result.status !== 0 && ours.length === 0 && others.length === 0)
      ours.push(`tsc failed: ${lines.slice(0, 10).join('\n')}`);
    return { entries, problems: ours };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main() {
  const dir = mkdtempSync(join(tmpdir(), 'gitlab-env-packs-'));
  let failed = 0;
  const manifests = {};
  try {
    const tarballs = packPlugins(dir);
    for (const [name, tarball] of Object.entries(tarballs)) {
      const files = execFileSync('tar', ['-tzf', tarball])
        .toString()
        .split('\n')
        .filter(Boolean);
      const manifest = JSON.parse(
        execFileSync('tar', ['-xzOf', tarball, 'package/package.json']),
      );
      manifests[name] = manifest;
      const problems = problemsOf(manifest, files);
      if (problems.length > 0) failed += 1;
      console.log(
        problems.length === 0
          ? `${name}: ${files.length} files, every entry point present`
          : `${name}:\n  ${problems.join('\n  ')}`,
      );
    }
    const { entries, problems } = declarationProblems(tarballs, manifests);
    if (problems.length > 0) failed += 1;
    console.log(
      problems.length === 0
        ? `declarations: ${entries.join(
            ', ',
          )} type-check with skipLibCheck false`
        : `declarations fail an adopter's tsc (skipLibCheck false):\n  ${problems.join(
            '\n  ',
          )}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
