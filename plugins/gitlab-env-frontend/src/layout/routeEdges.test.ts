import { layoutResourceGraph } from './layoutResourceGraph';
import { Point, routeEdges } from './routeEdges';

// Two trees: a Flux object owning a Deployment (› ReplicaSet › two Pods)
// and a Service; a PVC beside them, a HelmRepository below.
const forest = {
  nodes: [
    { id: 'ks', childIds: ['deploy', 'svc'] },
    { id: 'deploy', childIds: ['rs'] },
    { id: 'rs', childIds: ['pod-a', 'pod-b'] },
    { id: 'pod-a', childIds: [] },
    { id: 'pod-b', childIds: [] },
    { id: 'svc', childIds: [] },
    { id: 'pvc', childIds: [] },
    { id: 'repo', childIds: [] },
  ],
  roots: ['ks', 'pvc', 'repo'],
};
const layout = layoutResourceGraph(forest, { nodeWidth: 200, nodeHeight: 50 });
const edges = [
  { id: 'selects-a', source: 'svc', target: 'pod-a' }, // two columns on
  { id: 'selects-b', source: 'svc', target: 'pod-b' },
  { id: 'mounts', source: 'pod-b', target: 'pvc' }, // three columns back
  { id: 'sources', source: 'ks', target: 'repo' }, // same column
  { id: 'scales', source: 'svc', target: 'rs' }, // next column
];

function boxOf(id: string) {
  const p = layout.positions.get(id)!;
  return { left: p.x, top: p.y, right: p.x + 200, bottom: p.y + 50 };
}

/** Whether an axis-aligned segment passes through the inside of a box. */
function crosses(a: Point, b: Point, box: ReturnType<typeof boxOf>) {
  const [x1, x2] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
  const [y1, y2] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
  return x1 < box.right && x2 > box.left && y1 < box.bottom && y2 > box.top;
}

describe('routeEdges', () => {
  const routes = routeEdges(layout, edges);

  it('runs every edge from its source’s right side to its target’s left side in straight segments', () => {
    for (const edge of edges) {
      const points = routes.get(edge.id)!;
      const from = layout.positions.get(edge.source)!;
      const to = layout.positions.get(edge.target)!;
      expect(points[0]).toEqual({ x: from.x + 200, y: from.y + 25 });
      expect(points[points.length - 1]).toEqual({ x: to.x, y: to.y + 25 });
      for (let i = 1; i < points.length; i++) {
        const [a, b] = [points[i - 1], points[i]];
        expect(a.x === b.x || a.y === b.y).toBe(true);
      }
    }
  });

  it('crosses no box but its own ends, forwards, backwards and within a column', () => {
    for (const edge of edges) {
      const points = routes.get(edge.id)!;
      for (const { id } of forest.nodes) {
        if (id === edge.source || id === edge.target) continue;
        for (let i = 1; i < points.length; i++) {
          expect({
            edge: edge.id,
            box: id,
            crosses: crosses(points[i - 1], points[i], boxOf(id)),
          }).toEqual({ edge: edge.id, box: id, crosses: false });
        }
      }
    }
  });

  it('gives edges that share a channel lanes of their own', () => {
    const laneOf = (id: string) => routes.get(id)![1].x;
    expect(laneOf('selects-a')).not.toBe(laneOf('selects-b'));
  });
});
