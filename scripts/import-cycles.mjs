#!/usr/bin/env node
// Import cycles among a package's source files, type-only imports included
// (a cycle of types still ties the files' meaning together and breaks
// bundlers' and readers' order). Uses TypeScript's own resolver, so path
// forms (`./x`, `./x/index`, `../types`) resolve as tsc resolves them.
//
//   node scripts/import-cycles.mjs plugins/gitlab-env-common/src [more dirs]
//
// Prints each group of files that import each other (a strongly connected
// component of the import graph) and exits 1 when there is one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The files of `files` each one imports (re-exports and `import type` included). */
export function importGraph(files) {
  const known = new Set(files);
  const options = { moduleResolution: ts.ModuleResolutionKind.Node10 };
  const host = ts.sys;
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(
      readFileSync(file, 'utf8'),
      true,
      true,
    );
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const resolved = ts.resolveModuleName(fileName, file, options, host)
        .resolvedModule?.resolvedFileName;
      if (resolved && known.has(resolve(resolved)))
        targets.add(resolve(resolved));
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function cyclesOf(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    // Iterative depth-first walk: [file, position in its imports].
    const walk = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (walk.length > 0) {
      const top = walk[walk.length - 1];
      const [file, at] = top;
      const targets = graph.get(file);
      if (at < targets.length) {
        top[1] += 1;
        const target = targets[at];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          walk.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(file, Math.min(low.get(file), index.get(target)));
        }
        continue;
      }
      walk.pop();
      if (walk.length > 0) {
        const parent = walk[walk.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(file)));
      }
      if (low.get(file) !== index.get(file)) continue;
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || graph.get(file).includes(file))
        groups.push(group.sort());
    }
  }
  return groups;
}

function main() {
  const root = process.cwd();
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    console.error('usage: node scripts/import-cycles.mjs <dir> [<dir> ...]');
    process.exitCode = 2;
    return;
  }
  let failed = false;
  for (const dir of dirs) {
    const files = sourceFiles(resolve(dir));
    const groups = cyclesOf(importGraph(files));
    const inCycles = groups.reduce((sum, group) => sum + group.length, 0);
    console.log(
      `${dir}: ${files.length} files, ${groups.length} import cycle group(s), ${inCycles} file(s) in them`,
    );
    for (const group of groups.sort((a, b) => b.length - a.length)) {
      console.log(`  ${group.length} files:`);
      for (const file of group) console.log(`    ${relative(root, file)}`);
    }
    if (groups.length > 0) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
