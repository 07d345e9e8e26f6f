import fs from 'fs';
import path from 'path';

/**
 * The folders of src/ in the order a request goes down through them (the
 * README's "Layout"): a folder imports only folders of lower layers, never a
 * sibling of its own layer. Test code (`*.test.ts`, `__testUtils__`) may
 * import anything; its imports still count for cycles.
 */
const LAYERS: string[][] = [
  ['errors', 'config'],
  ['validation'],
  ['transport'],
  ['caching', 'reading'],
  ['locating'],
  ['assembling'],
  ['planning'],
  ['facade'],
  ['http'],
  [
    'actions',
    'agentClusters',
    'ciAccess',
    'diagnostics',
    'history',
    'overview',
    'usage',
  ],
  // The routes' cores (http, actions) served to AI assistants.
  ['assistant'],
  ['.'],
];

const SRC = __dirname;
const IMPORT = /\b(?:from|import)\s+['"](\.{1,2}(?:\/[^'"]*)?)['"]/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find(
    candidate => fs.existsSync(candidate),
  );
}

/** Relative imports of every file under src/, type-only ones included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map(match => resolveImport(file, match[1]))
      .filter((target): target is string => target !== undefined);
    graph.set(file, targets);
  }
  return graph;
}

const folderOf = (file: string) => {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? parts[0] : '.';
};
const isTestCode = (file: string) =>
  /\.test\.tsx?$/.test(file) || folderOf(file) === '__testUtils__';
const layerOf = (folder: string) =>
  LAYERS.findIndex(layer => layer.includes(folder));
const relative = (file: string) => path.relative(SRC, file);

/** Strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(member));
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the layout of src/', () => {
  const graph = importGraph();

  it('places every folder in a layer', () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    const unplaced = [...folders].filter(
      folder => folder !== '__testUtils__' && layerOf(folder) < 0,
    );
    expect(unplaced).toEqual([]);
  });

  it('imports only downwards, never a sibling folder of the same layer', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      if (isTestCode(file)) continue;
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== from && layerOf(to) >= layerOf(from))
          upward.push(`${relative(file)} -> ${relative(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import cycle, type-only imports and tests included', () => {
    expect(cycles(graph)).toEqual([]);
  });
});
