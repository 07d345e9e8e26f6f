import { LayoutForest, layoutResourceGraph } from './layoutResourceGraph';

// A forest given as `parent: [children]`; nodes named only as children are leaves.
function forest(tree: Record<string, string[]>, roots: string[]): LayoutForest {
  const ids = new Set([...Object.keys(tree), ...Object.values(tree).flat()]);
  return {
    nodes: [...ids].map(id => ({ id, childIds: tree[id] ?? [] })),
    roots,
  };
}

const sample = forest(
  {
    deploy: ['rs-new', 'rs-old'],
    'rs-new': ['pod-a', 'pod-b', 'pod-c'],
    'rs-old': [],
    sts: ['pod-0', 'pod-1'],
    svc: [],
  },
  ['deploy', 'sts', 'svc'],
);

const options = { nodeWidth: 100, nodeHeight: 40, columnGap: 20, rowGap: 10 };

describe('layoutResourceGraph', () => {
  it('places every parent one column left of its children', () => {
    const { positions } = layoutResourceGraph(sample, options);
    for (const node of sample.nodes) {
      const parent = positions.get(node.id)!;
      for (const childId of node.childIds) {
        const child = positions.get(childId)!;
        expect(child.x - parent.x).toBe(120);
        expect(child.depth).toBe(parent.depth + 1);
      }
    }
  });

  it('never lets two nodes of a column overlap', () => {
    const { positions } = layoutResourceGraph(sample, options);
    const byColumn = new Map<number, number[]>();
    for (const { x, y } of positions.values()) {
      byColumn.set(x, [...(byColumn.get(x) ?? []), y]);
    }
    for (const ys of byColumn.values()) {
      const sorted = [...ys].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) {
        expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(40);
      }
    }
  });

  it('centres a parent beside its children and keeps tree order top to bottom', () => {
    const { positions } = layoutResourceGraph(sample, options);
    const y = (id: string) => positions.get(id)!.y;
    expect(y('rs-new')).toBe((y('pod-a') + y('pod-c')) / 2);
    expect(y('pod-a')).toBeLessThan(y('pod-b'));
    expect(y('deploy')).toBeLessThan(y('sts'));
    expect(y('sts')).toBeLessThan(y('svc'));
  });

  it('is deterministic', () => {
    const first = layoutResourceGraph(sample, options);
    const second = layoutResourceGraph(sample, options);
    expect([...second.positions]).toEqual([...first.positions]);
  });

  it('positions nodes the roots do not reach, and survives cycles', () => {
    const cyclic = forest({ a: ['b'], b: ['a'], orphan: [] }, []);
    const { positions } = layoutResourceGraph(cyclic, options);
    expect([...positions.keys()].sort()).toEqual(['a', 'b', 'orphan']);
  });

  it('reports the size of the drawing', () => {
    const layout = layoutResourceGraph(sample, options);
    expect(layout.width).toBe(2 * 120 + 100);
    const maxY = Math.max(...[...layout.positions.values()].map(p => p.y));
    expect(layout.height).toBe(maxY + 40);
  });

  it('lays out an empty graph', () => {
    expect(layoutResourceGraph({ nodes: [], roots: [] }).positions.size).toBe(
      0,
    );
  });
});
