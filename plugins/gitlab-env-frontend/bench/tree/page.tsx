/**
 * The page the tree benchmark opens in Chromium: an environment's graph as
 * the tab draws it (buildGraphView, ResourceGraphView), from the compact
 * tree the live stream sends (TreeReader), or, as the baseline, from the
 * whole objects the stream sent before (the engine's tree computed in the
 * page, every sibling drawn but pods, as the tab did).
 */
// The bench bundles this page with esbuild's classic JSX transform, which
// needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  EnvironmentResourcesResponse,
  EnvironmentTree,
  TreeReader,
  TreeSnapshot,
  environmentTree,
  resourceTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { ResourceGraphView } from '../../src/components/graph/ResourceGraphView';
import { NO_FILTERS, buildGraphView } from '../../src/view/buildGraphView';

export type BenchMode = 'tree' | 'tree-ungrouped' | 'objects-ungrouped';

interface Timings {
  /** The body had arrived whole (performance.now()). */
  arrivedAt: number;
  /** The data was read into the tree the graph draws. */
  readAt?: number;
  /** The graph's first node was on the page. */
  drawnAt?: number;
  /**
   * A click on the first node had been handled (a node selected, or a
   * group showing its next siblings) and the frame after was painted.
   */
  interactedAt?: number;
  clicked?: 'resource' | 'group';
  bytes: number;
  objects: number;
  boxes?: number;
}

const timings: Partial<Timings> = {};

/** Marks the interaction done once the frame after it has been painted. */
function painted(clicked: Timings['clicked']) {
  requestAnimationFrame(() =>
    setTimeout(() => {
      timings.interactedAt ??= performance.now();
      timings.clicked ??= clicked;
    }),
  );
}

function Graph({ tree, grouped }: { tree: EnvironmentTree; grouped: boolean }) {
  const [selectedId, setSelectedId] = useState<string>();
  const [expanded, setExpanded] = useState<ReadonlyMap<string, number>>(
    new Map(),
  );
  const shape = useMemo(() => resourceTree(tree.graph), [tree]);
  const view = useMemo(
    () =>
      buildGraphView(
        tree.graph,
        grouped
          ? { filters: NO_FILTERS, expanded }
          : {
              filters: NO_FILTERS,
              expanded,
              siblingGroupThreshold: Number.POSITIVE_INFINITY,
            },
        shape,
      ),
    [tree, shape, grouped, expanded],
  );
  timings.boxes = view.nodes.length;
  return (
    <div style={{ height: 800 }}>
      <ResourceGraphView
        view={view}
        selectedId={selectedId}
        onSelect={id => {
          setSelectedId(id);
          painted('resource');
        }}
        onExpandGroup={id => {
          setExpanded(previous => new Map(previous).set(id, 50));
          painted('group');
        }}
        now={Date.now()}
      />
    </div>
  );
}

async function runBench(mode: BenchMode): Promise<Timings> {
  const response = await fetch(
    mode === 'objects-ungrouped' ? '/objects.json' : '/tree.json',
  );
  const body = await response.text();
  timings.arrivedAt = performance.now();
  timings.bytes = body.length;
  let tree: EnvironmentTree;
  if (mode === 'objects-ungrouped') {
    const objects = JSON.parse(body) as EnvironmentResourcesResponse;
    timings.objects = objects.resources.length;
    tree = environmentTree(objects);
  } else {
    tree = new TreeReader().read(JSON.parse(body) as TreeSnapshot);
    timings.objects = tree.graph.nodes.length;
  }
  timings.readAt = performance.now();
  const observer = new MutationObserver(() => {
    if (document.querySelector('.react-flow__node')) {
      timings.drawnAt ??= performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  createRoot(document.getElementById('root')!).render(
    <Graph tree={tree} grouped={mode === 'tree'} />,
  );
  return { ...timings } as Timings;
}

Object.assign(window, {
  runBench,
  benchTimings: () => ({ ...timings }),
});
