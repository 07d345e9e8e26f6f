/* eslint-disable no-console */
/**
 * Layout time of `layoutResourceGraph` beside @dagrejs/dagre's layered
 * layout (rankdir LR) of the same graphs, in the same run:
 *   npm run bench -w plugins/gitlab-env-frontend
 * Dagre gets the same forest (tree edges only: the fairest comparison), and
 * at 1,000 nodes once more with every edge, as graph views commonly feed it
 * (at 7,500 that run took 274 s on a 2-core machine, so it is left out).
 */
import dagre from '@dagrejs/dagre';
import {
  ResourceGraph,
  environmentTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { NODE_HEIGHT, NODE_WIDTH, layoutResourceGraph } from '../src/layout';
import { NO_FILTERS, buildGraphView } from '../src/view/buildGraphView';
import {
  environmentResponse,
  generateEnvironment,
} from './generateEnvironment';

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(run: () => void, repeat: number): number {
  run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function dagreLayout(graph: ResourceGraph, treeOnly: boolean) {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 72 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) {
    g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  }
  if (treeOnly) {
    for (const node of graph.nodes) {
      for (const child of node.childIds) g.setEdge(node.id, child);
    }
  } else {
    for (const edge of graph.edges) g.setEdge(edge.source, edge.target);
  }
  dagre.layout(g);
}

const rows: Record<string, string | number>[] = [];
for (const size of [1_000, 7_500]) {
  const { graph, resources } = generateEnvironment(size);
  const tree = environmentTree(
    environmentResponse('generated', 'bench', resources, graph),
  ).graph;
  const options = { nodeWidth: NODE_WIDTH, nodeHeight: NODE_HEIGHT };
  const ours = time(() => layoutResourceGraph(graph, options), 25);
  const viewAndLayout = time(
    () =>
      layoutResourceGraph(
        buildGraphView(tree, {
          filters: { ...NO_FILTERS, showAllKinds: true },
          expanded: new Map(),
        }),
        options,
      ),
    25,
  );
  const dagreTree = time(() => dagreLayout(graph, true), size > 2000 ? 1 : 3);
  const dagreAll =
    size > 2000 ? undefined : time(() => dagreLayout(graph, false), 1);
  rows.push({
    nodes: graph.nodes.length,
    edges: graph.edges.length,
    'tree layout ms': ours.toFixed(2),
    'view + layout ms': viewAndLayout.toFixed(2),
    'dagre (tree edges) ms': dagreTree.toFixed(0),
    'dagre (all edges) ms': dagreAll?.toFixed(0) ?? 'skipped',
    'speed-up vs dagre tree': `${Math.round(dagreTree / ours)}x`,
    'speed-up vs dagre all': dagreAll ? `${Math.round(dagreAll / ours)}x` : '—',
  });
}
console.table(rows);
