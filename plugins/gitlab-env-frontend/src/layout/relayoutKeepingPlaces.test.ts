import { LayoutForest, layoutResourceGraph } from './layoutResourceGraph';
import { relayoutKeepingPlaces } from './relayoutKeepingPlaces';

function forest(tree: Record<string, string[]>, roots: string[]): LayoutForest {
  const ids = new Set([...Object.keys(tree), ...Object.values(tree).flat()]);
  return {
    nodes: [...ids].map(id => ({ id, childIds: tree[id] ?? [] })),
    roots,
  };
}

const options = { nodeWidth: 100, nodeHeight: 40, columnGap: 20, rowGap: 10 };
const before = forest(
  {
    deploy: ['rs'],
    rs: ['pod-a', 'pod-b'],
    sts: ['sts-0'],
    svc: [],
  },
  ['deploy', 'sts', 'svc'],
);

function overlaps(layout: ReturnType<typeof layoutResourceGraph>) {
  const places = [...layout.positions.values()];
  return places.some((a, i) =>
    places.some(
      (b, j) => i !== j && a.depth === b.depth && Math.abs(a.y - b.y) < 50,
    ),
  );
}

describe('relayoutKeepingPlaces', () => {
  it('lays out from scratch without a previous layout', () => {
    expect(relayoutKeepingPlaces(before, undefined, options)).toEqual(
      layoutResourceGraph(before, options),
    );
  });

  it('keeps every node a scale-up did not touch in place and gives the new pods free rows in their column', () => {
    const first = layoutResourceGraph(before, options);
    const after = forest(
      {
        deploy: ['rs'],
        rs: ['pod-a', 'pod-b', 'pod-c', 'pod-d'],
        sts: ['sts-0'],
        svc: [],
      },
      ['deploy', 'sts', 'svc'],
    );
    const next = relayoutKeepingPlaces(after, first, options);
    for (const [id, place] of first.positions)
      expect(next.positions.get(id)).toEqual(place);
    expect(next.positions.get('pod-c')!.depth).toBe(2);
    expect(next.positions.get('pod-c')!.x).toBe(
      first.positions.get('pod-a')!.x,
    );
    expect(next.positions.get('pod-c')!.y).toBeGreaterThan(
      first.positions.get('pod-b')!.y,
    );
    expect(overlaps(next)).toBe(false);
    expect(next.height).toBeGreaterThanOrEqual(first.height);
  });

  it('lets removed nodes leave their rows, places new roots below, and re-places a node whose depth changed', () => {
    const first = layoutResourceGraph(before, options);
    const after = forest(
      { deploy: ['rs'], rs: ['pod-a'], sts: [], svc: ['sts-0'], cm: [] },
      ['deploy', 'sts', 'svc', 'cm'],
    );
    const next = relayoutKeepingPlaces(after, first, options);
    expect(next.positions.get('pod-a')).toEqual(first.positions.get('pod-a'));
    expect(next.positions.has('pod-b')).toBe(false);
    expect(next.positions.get('sts-0')!.depth).toBe(1);
    const lowest = Math.max(
      ...[...first.positions.values()].map(place => place.y),
    );
    expect(next.positions.get('cm')!.y).toBeGreaterThan(lowest);
    expect(overlaps(next)).toBe(false);
  });
});
