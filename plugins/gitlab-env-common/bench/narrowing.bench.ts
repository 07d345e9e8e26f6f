/* eslint-disable no-console */
// What narrowing a shared namespace to one environment costs, as a ratio to
// building the graph of the same objects (the work every read does anyway),
// both timed in the same run. Half the namespace is the environment's (its
// Kustomization's inventory), half another Kustomization's (its labels).
// Timings are printed, never asserted.
import {
  buildResourceGraph,
  gitlabMarkers,
  KubernetesObject,
  NamespaceNarrowing,
  narrowToEnvironment,
} from '../src';
import { generateEnvironment } from '../src/graph/testing/generateEnvironment';
import { time } from './timing';

/** Another Kustomization's objects moved into `namespace`, renamed apart and labelled as Flux labels them. */
function othersIn(namespace: string, size: number): KubernetesObject[] {
  return generateEnvironment(size, 'other')
    .filter(o => o.kind !== 'Kustomization')
    .map(o => ({
      ...o,
      metadata: {
        ...o.metadata,
        name: `o-${o.metadata!.name}`,
        namespace,
        labels: {
          ...o.metadata!.labels,
          'kustomize.toolkit.fluxcd.io/name': 'other',
          'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
        },
      },
    }));
}

const narrowing: NamespaceNarrowing = {
  by: 'inventory',
  sharedWith: ['environment other'],
  flux: { kind: 'Kustomization', namespace: 'flux-system', name: 'shop' },
  markers: gitlabMarkers({ projectPath: 'acme/shop', environmentSlug: 'prod' }),
};

for (const size of [2_000, 10_000]) {
  const objects = [
    ...generateEnvironment(size / 2, 'shop'),
    ...othersIn('shop', size / 2),
  ];
  const runs = 21;
  const graph = time(() => buildResourceGraph(objects), runs);
  const narrow = time(
    () => narrowToEnvironment(objects, 'shop', narrowing),
    runs,
  );
  const { hidden } = narrowToEnvironment(objects, 'shop', narrowing);
  console.log(
    `objects=${objects.length} hidden=${hidden} graph=${graph.toFixed(
      1,
    )}ms narrowing=${narrow.toFixed(1)}ms ratio=${(narrow / graph).toFixed(
      2,
    )} (medians of ${runs} runs)`,
  );
}
