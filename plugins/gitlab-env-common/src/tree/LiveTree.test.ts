import fc from 'fast-check';
import { environmentDrift } from '../gitops';
import { LiveResourceGraph } from '../graph/LiveResourceGraph';
import { generateEnvironment } from '../graph/testing/generateEnvironment';
import { CRAFTED, meta } from '../graph/testing/craftedObjects';
import { replaceField } from '../graph/testing/replaceField';
import {
  EnvironmentResourcesResponse,
  KubernetesObject,
  ResourceEdge,
  WatchEvent,
} from '../types';
import { environmentTree } from './environmentTree';
import { LiveTree } from './LiveTree';
import { TreeReader } from './TreeReader';
import { readOf } from './testing/readOf';
import { EnvironmentTree, TreePatch } from './types';

const helmRelease = (ready: 'True' | 'Unknown'): KubernetesObject => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: meta('web'),
  spec: { driftDetection: { mode: 'enabled' } },
  status: {
    conditions: [
      {
        type: 'Ready',
        status: ready,
        reason: ready === 'True' ? 'UpgradeSucceeded' : 'Progressing',
        message:
          ready === 'True'
            ? 'Helm upgrade succeeded'
            : 'correcting cluster drift',
      },
    ],
    lastAppliedRevision: '1.2.3',
  },
});
const helmLabelled: KubernetesObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: meta('web-helm', {
    labels: {
      'helm.toolkit.fluxcd.io/name': 'web',
      'helm.toolkit.fluxcd.io/namespace': 'shop',
    },
  }),
  spec: { replicas: 2 },
  status: { readyReplicas: 2 },
};
const driftEvent = (name: string, line: string): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: meta(name),
  involvedObject: { kind: 'HelmRelease', name: 'web', namespace: 'shop' },
  type: 'Warning',
  reason: 'DriftDetected',
  lastTimestamp: '2026-11-21T09:31:00Z',
  message: `Cluster state of release shop/web.v3 has drifted from the desired state:\n${line}`,
});
const GITOPS: KubernetesObject[] = [
  helmRelease('True'),
  helmRelease('Unknown'),
  helmLabelled,
  driftEvent(
    'web.1',
    'Deployment/shop/web-helm changed (0 additions, 1 changes, 0 removals)',
  ),
  driftEvent(
    'web.2',
    'Deployment/shop/app-0 changed (0 additions, 1 changes, 0 removals)',
  ),
];

const BASE: KubernetesObject[] = [
  ...generateEnvironment(60),
  ...CRAFTED,
  ...GITOPS,
];

/** A base object with one field replaced: what the page draws and what it does not. */
const variant = fc
  .tuple(
    fc.constantFrom(...BASE),
    fc.constantFrom(
      'metadata.labels',
      'metadata.ownerReferences',
      'metadata.annotations',
      'metadata.resourceVersion',
      'metadata.creationTimestamp',
      'spec',
      'spec.suspend',
      'status',
      'status.inventory',
    ),
    fc.oneof(
      fc.constantFrom(...BASE).map(other => other.metadata?.labels),
      fc.constantFrom(...BASE).map(other => other.metadata?.ownerReferences),
      fc.constantFrom(...BASE).map(other => other.spec),
      fc.constantFrom(...BASE).map(other => other.status),
      fc.constantFrom(true, '2026-01-01T10:00:00Z', '17'),
      fc.anything(),
    ),
  )
  .map(([object, path, value]) => replaceField(object, path, value));

const event: fc.Arbitrary<WatchEvent> = fc.record({
  type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'),
  object: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...BASE) },
    { weight: 3, arbitrary: variant },
  ),
});

/** The drift of the engine's state, as its owner (the backend's LiveEnvironment) computes it. */
const driftOf = (live: LiveResourceGraph) =>
  environmentDrift(live.objects(), live.graph());

/** A read of the engine's state with its drift and count, as the backend's read carries them. */
const responseOf = (live: LiveResourceGraph): EnvironmentResourcesResponse =>
  readOf(
    { resources: live.objects(), graph: live.graph(), health: live.health() },
    driftOf(live),
  );

/**
 * A LiveTree following the engine from `initial` as the backend's does (the
 * state's drift given with each patch), and the page's tree read from what
 * it sent, through JSON.
 */
function following(initial: KubernetesObject[]) {
  const live = new LiveResourceGraph(initial);
  const first = responseOf(live);
  const tree = new LiveTree(first);
  const reader = new TreeReader();
  let held = reader.read(JSON.parse(JSON.stringify(tree.snapshot(first))));
  return {
    live,
    tree,
    reader,
    /** Applies a batch; answers what the page holds then. */
    apply(batch: WatchEvent[]): EnvironmentTree {
      const patch = tree.apply(live.apply(batch), driftOf(live));
      if (patch) held = reader.apply(JSON.parse(JSON.stringify(patch)));
      return held;
    },
  };
}

const edgeName = (edge: ResourceEdge) =>
  `${edge.source} -${edge.type}-> ${edge.target}`;

/** A tree with its edges in one order (a patch appends, a build lists by source). */
function comparable(tree: EnvironmentTree) {
  return {
    ...tree,
    graph: { ...tree.graph, edges: tree.graph.edges.map(edgeName).sort() },
  };
}

/** The bytes a message carries, as JSON. */
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('LiveTree and TreeReader', () => {
  it('send a snapshot the page reads as the tree of the same state', () => {
    const live = new LiveResourceGraph(BASE);
    const response = responseOf(live);
    const tree = new LiveTree(response);
    const read = new TreeReader().read(
      JSON.parse(JSON.stringify(tree.snapshot(response))),
    );
    expect(comparable(read)).toEqual(comparable(environmentTree(response)));
    // What the graph draws came along: status words, drift, sync states.
    const pod = read.graph.nodes.find(n => n.kind === 'Pod')!;
    expect(pod.status.length).toBeGreaterThan(0);
    expect(read.graph.nodes.find(n => n.name === 'web-helm')?.drifted).toBe(
      true,
    );
    expect(
      read.graph.nodes.find(n => n.kind === 'HelmRelease')?.flux?.sync,
    ).toBeDefined();
    expect(read.environment.driftedCount).toBeGreaterThan(0);
  });

  it('keep the page equal to the tree of the state after any batches of events', () => {
    fc.assert(
      fc.property(
        fc.subarray(BASE),
        fc.array(fc.array(event, { minLength: 1, maxLength: 6 }), {
          maxLength: 8,
        }),
        (initial, batches) => {
          const { live, apply } = following(initial);
          for (const batch of batches) {
            const held = apply(batch);
            const expected = environmentTree(responseOf(live));
            // The snapshot's health stays until a patch changes it.
            expect(comparable({ ...held, health: expected.health })).toEqual(
              comparable(expected),
            );
            expect(held.health.counts).toEqual(expected.health.counts);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('show one drift count on the card, in the live patches and in the tree after any batches of events', () => {
    // Flux's drift Event as a cluster may also hold it: about an object
    // that is not a Flux one (a copy, an Event another tool wrote).
    const aboutNoFluxObject = {
      ...driftEvent(
        'web.3',
        'Deployment/shop/web-helm changed (0 additions, 1 changes, 0 removals)',
      ),
      involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'web' },
    };
    // The same Event before it said so.
    const quiet = { ...aboutNoFluxObject, message: 'Updated' };
    const objects = [...BASE, aboutNoFluxObject, quiet];
    const anyEvent: fc.Arbitrary<WatchEvent> = fc.record({
      type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'),
      object: fc.oneof(
        {
          weight: 1,
          arbitrary: fc.constantFrom(...GITOPS, aboutNoFluxObject, quiet),
        },
        { weight: 2, arbitrary: fc.constantFrom(...objects) },
        { weight: 2, arbitrary: variant },
      ),
    });
    const drifted = (tree: EnvironmentTree) =>
      tree.graph.nodes.filter(n => n.drifted).length;
    fc.assert(
      fc.property(
        fc.subarray(objects),
        fc.array(fc.array(anyEvent, { minLength: 1, maxLength: 6 }), {
          maxLength: 8,
        }),
        (initial, batches) => {
          const { live, tree, reader, apply } = following(initial);
          for (const batch of batches) {
            const held = apply(batch);
            // The card's count: the backend's read of the state.
            const card = responseOf(live).environment.driftedCount ?? 0;
            expect({
              patched: held.environment.driftedCount ?? 0,
              markedInTree: drifted(held),
              polled:
                environmentTree(responseOf(live)).environment.driftedCount ?? 0,
              polledMarks: drifted(environmentTree(responseOf(live))),
              snapshot:
                reader.read(tree.snapshot(responseOf(live))).environment
                  .driftedCount ?? 0,
            }).toEqual({
              patched: card,
              markedInTree: card,
              polled: card,
              polledMarks: card,
              snapshot: card,
            });
          }
        },
      ),
      {
        numRuns: 150,
        // The state drifts by an Event about no Flux object alone, changed.
        examples: [
          [
            [helmRelease('True'), helmLabelled, quiet],
            [[{ type: 'MODIFIED', object: aboutNoFluxObject }]],
          ],
        ],
      },
    );
  });

  it('send nothing for a change the page does not draw, and only the changed fields otherwise', () => {
    const live = new LiveResourceGraph(BASE);
    const tree = new LiveTree(responseOf(live));
    const pod = BASE.find(
      o => o.kind === 'Pod' && o.status?.containerStatuses?.[0]?.ready,
    )!;
    const touched = structuredClone(pod);
    touched.metadata!.resourceVersion = '999';
    touched.metadata!.annotations = { 'simulator/changed-at': 'now' };
    touched.status.conditions = [
      ...(touched.status.conditions ?? []),
      { type: 'PodScheduled', status: 'True' },
    ];
    const enginePatch = live.apply({ type: 'MODIFIED', object: touched });
    expect(enginePatch.nodesChanged).toHaveLength(1);
    expect(tree.apply(enginePatch, driftOf(live))).toBeUndefined();

    const restarted = structuredClone(touched);
    restarted.status.containerStatuses[0].restartCount = 3;
    const patch = tree.apply(
      live.apply({ type: 'MODIFIED', object: restarted }),
      driftOf(live),
    ) as TreePatch;
    expect(patch.changed).toEqual([
      { i: expect.any(Number), w: ['Running', '1/1 ready', '3 restarts'] },
    ]);
    expect(Object.keys(patch)).toEqual(['v', 'changed']);
  });

  it('keep a 10,000-object environment under 300 bytes an object', () => {
    const live = new LiveResourceGraph(generateEnvironment(10_000));
    const response = responseOf(live);
    const snapshot = new LiveTree(response).snapshot(response);
    const perObject = bytes(snapshot) / response.resources.length;
    expect(perObject).toBeLessThan(300);
    // The whole objects, as the stream sent them before.
    expect(bytes(response) / response.resources.length).toBeGreaterThan(
      3 * perObject,
    );
  });

  it('refuse a patch out of step with what the page holds, keeping it', () => {
    const live = new LiveResourceGraph(BASE);
    const response = responseOf(live);
    const reader = new TreeReader();
    const held = reader.read(
      new LiveTree(response).snapshot(response),
    );
    expect(() => reader.apply({ v: 1, removed: [987654] })).toThrow(
      /malformed/,
    );
    expect(() =>
      reader.apply({ v: 1, kinds: [['', 'v1', 'X']], kindsFrom: 0 }),
    ).toThrow(/out of step/);
    expect(reader.apply({ v: 1, health: held.health }).graph).toBe(held.graph);
  });
});
