/* eslint-disable no-console */
// The DRIFT count of an environment card: what it costs per card against
// the engine work the read itself does for that card (graph + health +
// roll-up), for the whole GitOps view the count used to build and for
// environmentDrift, which computes the drift alone. Then an overview of many
// environments: the count for every card, as one request computes it.
// Timings are printed, never asserted: machines are noisy.
import {
  buildGitOpsView,
  buildResourceGraph,
  driftedCount,
  environmentDrift,
  KubernetesObject,
  summarizeGraphHealth,
} from '../src';
import { generateEnvironment } from '../src/graph/testing/generateEnvironment';
import { time } from './timing';

/**
 * A generated environment as a real cluster returns it: server-side apply's
 * managedFields on every object (kubectl edited one in fifty), and Events
 * (one per ten objects, some about the Kustomization).
 */
function clusterLike(size: number, namespace = 'shop'): KubernetesObject[] {
  const objects = generateEnvironment(size, namespace).map((o, i) => ({
    ...o,
    metadata: {
      ...o.metadata,
      managedFields: [
        {
          manager: 'kustomize-controller',
          operation: 'Apply',
          fieldsV1: { 'f:metadata': { 'f:labels': {} }, 'f:spec': {} },
        },
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          subresource: 'status',
          fieldsV1: { 'f:status': {} },
        },
        ...(i % 50 === 0
          ? [
              {
                manager: 'kubectl-edit',
                operation: 'Update',
                fieldsV1: { 'f:spec': { 'f:replicas': {} } },
              },
            ]
          : []),
      ],
    },
  }));
  const flux = objects.find(o => o.kind === 'Kustomization')!;
  const events = Array.from({ length: Math.ceil(size / 10) }, (_, i) => {
    const about = i % 4 === 0 ? flux : objects[i];
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `event-${i}`, namespace, uid: `event-${i}` },
      involvedObject: {
        kind: about.kind,
        name: about.metadata?.name,
        namespace: about.metadata?.namespace,
      },
      reason: 'ReconciliationSucceeded',
      message: 'Reconciliation finished',
      lastTimestamp: new Date(Date.UTC(2026, 10, 20, 0, i)).toISOString(),
      type: 'Normal',
    } as KubernetesObject;
  });
  return [...objects, ...events];
}

function perCard(size: number) {
  const objects = clusterLike(size);
  const graph = buildResourceGraph(objects);
  const runs = size >= 10_000 ? 9 : 25;
  const read = time(
    () => summarizeGraphHealth(buildResourceGraph(objects)),
    runs,
  );
  const view = time(
    () =>
      Object.keys(
        buildGitOpsView(objects, graph, [], environmentDrift(objects, graph))
          .drift,
      ).length,
    runs,
  );
  const count = time(
    () => driftedCount(environmentDrift(objects, graph)),
    runs,
  );
  console.log(
    `objects=${objects.length} read's engine ${read.toFixed(2)} ms; ` +
      `count through the whole GitOps view ${view.toFixed(2)} ms (${(
        view / read
      ).toFixed(2)}x the read); environmentDrift ${count.toFixed(2)} ms (${(
        count / read
      ).toFixed(2)}x the read)`,
  );
}

function overview(environments: number, size: number) {
  const cards = Array.from({ length: environments }, (_, i) => {
    const objects = clusterLike(size, `env-${i}`);
    return { objects, graph: buildResourceGraph(objects) };
  });
  const runs = 5;
  const view = time(
    () =>
      cards.forEach(
        c =>
          buildGitOpsView(
            c.objects,
            c.graph,
            [],
            environmentDrift(c.objects, c.graph),
          ).drift,
      ),
    runs,
  );
  const count = time(
    () =>
      cards.forEach(c => driftedCount(environmentDrift(c.objects, c.graph))),
    runs,
  );
  console.log(
    `overview of ${environments} environments x ${size} objects: ` +
      `whole view ${view.toFixed(1)} ms, environmentDrift ${count.toFixed(
        1,
      )} ms per request (ratio ${(view / count).toFixed(2)})`,
  );
}

perCard(1_000);
perCard(10_000);
overview(100, 1_000);
