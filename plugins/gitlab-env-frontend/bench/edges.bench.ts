/* eslint-disable no-console */
/**
 * How often the graph's edges pass through a node box they do not start or
 * end at, in the demo's environments (the default simulator scenario),
 * with the edges as React Flow drew them before (bezier for the relations
 * that are not the tree's) and as routeEdges routes them, in the same run:
 *   npm run bench:edges -w plugins/gitlab-env-frontend
 * A crossing is one (edge, box) pair; each path is sampled every 2 px.
 */
import {
  KubernetesObject,
  buildResourceGraph,
  environmentTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { loadDefaultScenario } from '@gitlab-env/gitlab-simulator';
import { Position, getBezierPath, getSmoothStepPath } from '@xyflow/react';
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  Point,
  ResourceGraphLayout,
  layoutResourceGraph,
  routeEdges,
} from '../src/layout';
import { environmentResponse } from './generateEnvironment';
import { roundedPathPoints } from './pathPoints';
import {
  GraphView,
  NO_FILTERS,
  buildGraphView,
} from '../src/view/buildGraphView';

interface Box {
  id: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function boxesOf(layout: ResourceGraphLayout): Box[] {
  return [...layout.positions].map(([id, p]) => ({
    id,
    left: p.x,
    top: p.y,
    right: p.x + layout.nodeWidth,
    bottom: p.y + layout.nodeHeight,
  }));
}

/** (edge, box) pairs where the edge's path runs inside a box not its own. */
function crossings(
  view: GraphView,
  boxes: Box[],
  pathOf: (edge: GraphView['edges'][number]) => Point[],
): number {
  let count = 0;
  for (const edge of view.edges) {
    const samples = pathOf(edge);
    for (const box of boxes) {
      if (box.id === edge.source || box.id === edge.target) continue;
      if (
        samples.some(
          p =>
            p.x > box.left + 1 &&
            p.x < box.right - 1 &&
            p.y > box.top + 1 &&
            p.y < box.bottom - 1,
        )
      )
        count++;
    }
  }
  return count;
}

function handles(layout: ResourceGraphLayout, source: string, target: string) {
  const s = layout.positions.get(source)!;
  const t = layout.positions.get(target)!;
  return {
    sourceX: s.x + layout.nodeWidth,
    sourceY: s.y + layout.nodeHeight / 2,
    sourcePosition: Position.Right,
    targetX: t.x,
    targetY: t.y + layout.nodeHeight / 2,
    targetPosition: Position.Left,
  };
}

function measure(view: GraphView) {
  const layout = layoutResourceGraph(view, {
    nodeWidth: NODE_WIDTH,
    nodeHeight: NODE_HEIGHT,
  });
  const boxes = boxesOf(layout);
  const tree = (edge: GraphView['edges'][number]) =>
    roundedPathPoints(
      getSmoothStepPath(handles(layout, edge.source, edge.target))[0],
    );
  const before = crossings(view, boxes, edge =>
    edge.tree
      ? tree(edge)
      : roundedPathPoints(
          getBezierPath(handles(layout, edge.source, edge.target))[0],
        ),
  );
  const routes = routeEdges(
    layout,
    view.edges.filter(edge => !edge.tree),
  );
  const after = crossings(view, boxes, edge =>
    edge.tree
      ? tree(edge)
      : roundedPathPoints(pathOfPoints(routes.get(edge.id)!)),
  );
  return { before, after };
}

function pathOfPoints(points: Point[]): string {
  return points.map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(' ');
}

const scenario = loadDefaultScenario();
const rows: Array<{
  name: string;
  nodes: number;
  edges: number;
  routed: number;
  before: number;
  after: number;
}> = [];
for (const project of scenario.projects) {
  for (const environment of project.environments) {
    const cluster = scenario.clusters.find(c => c.agent === environment.agent);
    const namespace = environment.kubernetesNamespace;
    if (!cluster || !namespace || environment.state === 'stopped') continue;
    const objects = cluster.objects.filter(
      o => o.metadata?.namespace === namespace,
    ) as KubernetesObject[];
    const graph = buildResourceGraph(objects);
    const tree = environmentTree(
      environmentResponse(environment.name, namespace, objects, graph),
    ).graph;
    const view = buildGraphView(tree, {
      filters: NO_FILTERS,
      expanded: new Map(),
    });
    rows.push({
      name: `${project.fullPath} ${environment.name}`,
      nodes: view.nodes.length,
      edges: view.edges.length,
      routed: view.edges.filter(edge => !edge.tree).length,
      ...measure(view),
    });
  }
}
rows.sort((a, b) => b.nodes - a.nodes || b.edges - a.edges);
console.log(
  'Edge crossings of node boxes (edge, box) in the demo environments, as drawn',
);
console.log('before (bezier for non-tree edges) and after (routeEdges):');
for (const row of rows) {
  console.log(
    `  ${row.name.padEnd(50)} ${String(row.nodes).padStart(3)} nodes ${String(
      row.edges,
    ).padStart(3)} edges (${row.routed} not the tree's): ${row.before} -> ${
      row.after
    }`,
  );
}
const largest = rows[0];
const total = rows.reduce(
  (sum, row) => ({
    before: sum.before + row.before,
    after: sum.after + row.after,
  }),
  { before: 0, after: 0 },
);
const share = largest.before
  ? ` (${((largest.after / largest.before) * 100).toFixed(0)} % of before)`
  : '';
console.log(
  `Largest graph (${largest.name}, ${largest.nodes} nodes): ${largest.before} crossings before, ${largest.after} after${share}`,
);
console.log(
  `All ${rows.length} environments: ${total.before} before, ${total.after} after`,
);
