#!/usr/bin/env node
// The packaging check `npm test` runs (the full adopter test is too long for
// CI, see scripts/test-all.mjs): packs the plugin packages as they would be
// published and checks each tarball's manifest against its own files, the
// way an adopter's tsc and Node resolve them: main, module, types, every
// exports target and typesVersions entry must be a file in the tarball and
// none may point into src/; a declared configSchema must be there too.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPlugins } from './pack-plugins.mjs';

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

function main() {
  const dir = mkdtempSync(join(tmpdir(), 'gitlab-env-packs-'));
  let failed = 0;
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
      const problems = problemsOf(manifest, files);
      if (problems.length > 0) failed += 1;
      console.log(
        problems.length === 0
          ? `${name}: ${files.length} files, every entry point present`
          : `${name}:\n  ${problems.join('\n  ')}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
