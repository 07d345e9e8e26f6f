import fc from 'fast-check';
import { generateEnvironment } from './testing/generateEnvironment';
import { replaceField } from './testing/replaceField';
import {
  HealthSummary,
  KubernetesObject,
  ResourceEdge,
  ResourceGraph,
  WatchEvent,
} from '../types';
import { computeHealth, createHealthRuleSet } from '../health';
import { buildResourceGraph } from './buildResourceGraph';
import { summarizeGraphHealth } from './summarizeGraphHealth';
import { resourceKeyOf, resourceId } from '../k8s/resourceId';
import { objectsByNodeId } from './objectsByNodeId';
import { LiveResourceGraph } from './LiveResourceGraph';
import {
  CRAFTED,
  configMap,
  kustomization,
  meta,
  ns,
  ownedBy,
} from './testing/craftedObjects';
import {
  PatchableResources,
  applyResourceGraphPatch,
} from './applyResourceGraphPatch';

const BASE: KubernetesObject[] = [...generateEnvironment(40), ...CRAFTED];

/** A base object with one field replaced: labels, owners, selectors, inventories, health. */
const variant = fc
  .tuple(
    fc.constantFrom(...BASE),
    fc.constantFrom(
      'metadata.labels',
      'metadata.ownerReferences',
      'metadata.uid',
      'metadata.annotations',
      'spec.selector',
      'spec.scaleTargetRef',
      'status',
      'status.inventory',
      'spec',
      'spec.sourceRef',
      'spec.dependsOn',
    ),
    fc.oneof(
      fc.constantFrom(...BASE).map(other => other.metadata?.labels),
      fc.constantFrom(...BASE).map(other => other.metadata?.ownerReferences),
      fc.constantFrom(...BASE).map(other => other.spec),
      fc.constantFrom(...BASE).map(other => other.status),
      fc.constantFrom(...BASE).map(other => other.metadata?.uid),
      fc.anything(),
    ),
  )
  .map(([object, path, value]) => replaceField(object, path, value));

/** Inventories changing under the same name: entries added, dropped, reordered, versions changed. */
const FLUX_VARIANTS: KubernetesObject[] = [
  kustomization('flux-a', [
    `${ns}_ghost-cm__ConfigMap`,
    `${ns}_ghost_apps_Deployment`,
  ]),
  kustomization('flux-a', [`${ns}_twin-1__ConfigMap`]),
  kustomization('flux-b', [
    `${ns}_twin-1__ConfigMap`,
    `${ns}_ghost_apps_Deployment`,
    `${ns}_loop-b__ConfigMap`,
  ]),
  {
    ...kustomization('flux-c', []),
    spec: {
      sourceRef: { kind: 'GitRepository', name: 'gone' },
      dependsOn: [{ name: 'flux-b' }],
    },
  },
  {
    ...kustomization('flux-b', [`${ns}_ghost_apps_Deployment`]),
    status: {
      inventory: {
        entries: [{ id: `${ns}_ghost_apps_Deployment`, v: 'v2' }],
      },
    },
  },
];

const anyObject = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BASE) },
  { weight: 1, arbitrary: fc.constantFrom(...FLUX_VARIANTS) },
  { weight: 3, arbitrary: variant },
  { weight: 1, arbitrary: fc.anything() as fc.Arbitrary<KubernetesObject> },
);

const event: fc.Arbitrary<WatchEvent> = fc.record({
  type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'),
  object: anyObject,
});

const edgeName = (edge: ResourceEdge) =>
  `${edge.source} -${edge.type}-> ${edge.target}`;

/** A graph with its parts in one order, to compare graphs built in different ways. */
function canonical(graph: ResourceGraph, health: HealthSummary) {
  return {
    nodes: [...graph.nodes].sort((a, b) => compare(a.id, b.id)),
    edges: graph.edges.map(edgeName).sort(),
    roots: [...graph.roots].sort(),
    health,
  };
}

function compare(a: string, b: string) {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/**
 * What a page holds after applying the patches: the graph in the engine's
 * order, edges and objects by id (an object deleted and added again within
 * one batch is only reported upserted).
 */
function held(state: PatchableResources) {
  return {
    resources: [...objectsByNodeId(state.resources)].sort(([a], [b]) =>
      compare(a, b),
    ),
    nodes: state.graph.nodes,
    roots: state.graph.roots,
    edges: state.graph.edges.map(edgeName).sort(),
    health: state.health,
  };
}

function liveState(live: LiveResourceGraph): PatchableResources {
  return {
    resources: live.objects(),
    graph: live.graph(),
    health: live.health(),
  };
}

/** The objects a watcher holds after the events: one per id, later events win. */
function model(initial: KubernetesObject[], events: WatchEvent[]) {
  const objects = new Map<string, KubernetesObject>();
  const idOf = (object: unknown) => {
    if (typeof object !== 'object' || object === null) return undefined;
    const key = resourceKeyOf(object as KubernetesObject);
    return key ? resourceId(key) : undefined;
  };
  for (const object of initial) {
    const id = idOf(object);
    if (id !== undefined) objects.set(id, object);
  }
  for (const { type, object } of events) {
    const id = idOf(object);
    if (id === undefined) continue;
    if (type === 'DELETED') objects.delete(id);
    else objects.set(id, object);
  }
  return [...objects.values()];
}

function rebuilt(objects: KubernetesObject[]) {
  const graph = buildResourceGraph(objects);
  return canonical(graph, summarizeGraphHealth(graph));
}

describe('LiveResourceGraph', () => {
  it('starts as the graph built from its objects', () => {
    const live = new LiveResourceGraph(BASE);
    expect(canonical(live.graph(), live.health())).toEqual(rebuilt(BASE));
    // Parents first and children by id, as the build orders them.
    expect(live.graph().nodes.map(n => n.id)).toEqual(
      buildResourceGraph(BASE).nodes.map(n => n.id),
    );
  });

  it("judges health as the full build does with adopters' rules and generic-rule objects", () => {
    // A custom resource whose status says nothing readable: the generic
    // rule marks it Unknown, and neither build lets that roll up.
    const silent: KubernetesObject = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: meta('silent', ownedBy('owner')),
      status: { note: 'nothing standard' },
    };
    const owner = configMap('owner');
    const rules = createHealthRuleSet([
      {
        group: '',
        kind: 'ConfigMap',
        rule: () => ({ status: 'Degraded', message: 'flagged by the portal' }),
      },
    ]);
    const options = { health: { rules } };
    const live = new LiveResourceGraph([owner], options);
    live.apply({ type: 'ADDED', object: silent });
    const built = buildResourceGraph([owner, silent], options);
    expect(canonical(live.graph(), live.health())).toEqual(
      canonical(built, summarizeGraphHealth(built)),
    );
    expect(live.node(resourceId(resourceKeyOf(owner)!))?.health).toMatchObject({
      status: 'Degraded',
      origin: 'adopter',
    });
    expect(live.node(resourceId(resourceKeyOf(silent)!))?.health).toMatchObject(
      {
        status: 'Unknown',
        origin: 'generic',
      },
    );
    expect(live.health().counts.none).toBe(1);
  });

  it('counts resources, not the Events about them, in its health summary', () => {
    const eventAbout = (name: string): KubernetesObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta(name),
      involvedObject: { kind: 'ConfigMap', name: 'settings', namespace: ns },
      reason: 'Updated',
    });
    const live = new LiveResourceGraph([configMap('settings')]);
    const patch = live.apply([
      { type: 'ADDED', object: eventAbout('settings.1') },
      { type: 'ADDED', object: eventAbout('settings.2') },
    ]);
    expect(live.graph().nodes.filter(n => n.kind === 'Event')).toHaveLength(2);
    expect(live.health()).toMatchObject({ total: 1, counts: { none: 1 } });
    expect(patch.health).toBeUndefined();
    expect(summarizeGraphHealth(live.graph())).toEqual(live.health());
  });

  it('after any events holds exactly the graph built from scratch on the final objects, and its patches say how it got there', () => {
    fc.assert(
      fc.property(
        fc.array(anyObject, { maxLength: 30 }),
        fc.array(fc.array(event, { minLength: 1, maxLength: 4 }), {
          maxLength: 12,
        }),
        (initial, batches) => {
          // Unique ids at the start: the build keeps duplicates by resourceVersion, a watch by arrival.
          const start = model(initial, []);
          const live = new LiveResourceGraph(start);
          let page = liveState(live);
          const applied: WatchEvent[] = [];
          for (const batch of batches) {
            const patch = live.apply(batch);
            applied.push(...batch);
            expect(canonical(live.graph(), live.health())).toEqual(
              rebuilt(model(start, applied)),
            );
            page = applyResourceGraphPatch(page, patch);
            expect(held(page)).toEqual(held(liveState(live)));
          }
          expect(live.objects()).toEqual(model(start, applied));
          expect(live.objectCount()).toBe(live.objects().length);
        },
      ),
      { numRuns: 250 },
    );
  });

  it('reports only what an event changed', () => {
    const objects = generateEnvironment(200);
    const live = new LiveResourceGraph(objects);
    const pod = objects.find(
      o =>
        o.kind === 'Pod' &&
        o.metadata?.name?.endsWith('-0') &&
        computeHealth(o)?.status === 'Healthy',
    )!;
    const crashing: KubernetesObject = {
      ...pod,
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'app', state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
    };
    const patch = live.apply({ type: 'MODIFIED', object: crashing });
    const podId = resourceId(resourceKeyOf(pod)!);
    expect(patch.nodesAdded).toEqual([]);
    expect(patch.nodesRemoved).toEqual([]);
    expect(patch.edgesAdded).toEqual([]);
    expect(patch.edgesRemoved).toEqual([]);
    expect(patch.objectsUpserted).toEqual([crashing]);
    const changed = new Map(patch.nodesChanged.map(n => [n.id, n]));
    expect(changed.get(podId)?.health?.status).toBe('Degraded');
    // The roll-up reached the pod's owners, and nothing else changed.
    const chain = [podId];
    for (let id = live.node(podId)?.parentId; id; id = live.node(id)?.parentId)
      chain.push(id);
    expect(chain.length).toBeGreaterThan(2);
    for (const id of chain)
      expect(live.node(id)?.subtreeHealth).toMatch(/Degraded|Unknown/);
    expect([...changed.keys()].every(id => chain.includes(id))).toBe(true);
    expect(patch.health?.counts.Degraded).toBe(live.health().counts.Degraded);

    const deleted = live.apply({ type: 'DELETED', object: crashing });
    expect(deleted.nodesRemoved).toEqual([podId]);
    expect(deleted.objectsRemoved).toEqual([podId]);
    expect(deleted.edgesRemoved.map(e => e.target)).toContain(podId);
  });

  it('keeps node objects it handed out unchanged', () => {
    const live = new LiveResourceGraph(BASE);
    const before = live.graph();
    const frozen = JSON.stringify(before);
    live.apply(
      BASE.slice(0, 20).map(object => ({ type: 'DELETED' as const, object })),
    );
    expect(JSON.stringify(before)).toBe(frozen);
  });
});
