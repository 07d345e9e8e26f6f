import { readFileSync } from 'fs';
import { join } from 'path';
import { KubernetesObject, WatchEvent } from '../../types';
import { buildResourceGraph } from '../buildResourceGraph';
import { LiveResourceGraph } from '../LiveResourceGraph';
import { GOLDEN_INPUTS, recordedGraph } from '../testing/goldenGraphs';
import { GraphEngine } from './GraphEngine';

const golden = (name: string) =>
  JSON.parse(
    readFileSync(join(__dirname, '../testing/golden', `${name}.json`), 'utf8'),
  );

const added = (objects: KubernetesObject[]): WatchEvent[] =>
  objects.map(object => ({ type: 'ADDED', object }));

describe('the graph engine', () => {
  // Recorded from the whole-graph builder the engine replaced: a read, a
  // live graph's start and a live graph filled event by event must all
  // build exactly these graphs (node order, edges, roots, health).
  describe.each(Object.keys(GOLDEN_INPUTS))('recorded graph %s', name => {
    const input = GOLDEN_INPUTS[name];
    const expected = golden(name);

    it('is what a read builds', () => {
      expect(recordedGraph(buildResourceGraph(input()))).toEqual(expected);
    });

    it('is what a live graph starts as', () => {
      expect(recordedGraph(new LiveResourceGraph(input()).graph())).toEqual(
        expected,
      );
    });

    it('is what a live graph holds after the objects arrive one event at a time, or all in one batch', () => {
      const oneByOne = new LiveResourceGraph();
      for (const event of added(input())) oneByOne.apply(event);
      expect(recordedGraph(oneByOne.graph())).toEqual(expected);
      const batch = new LiveResourceGraph();
      batch.apply(added(input()));
      expect(recordedGraph(batch.graph())).toEqual(expected);
    });
  });

  it('a one-shot load takes no events', () => {
    const engine = new GraphEngine({ watch: false });
    engine.load(GOLDEN_INPUTS.crafted());
    expect(() => engine.apply([])).toThrow(/one-shot/);
  });

  it('lets go of the keys of objects that went and of lookups nothing makes any more', () => {
    const engine = new GraphEngine();
    const base = GOLDEN_INPUTS.environment();
    engine.load(base);
    const sizes = () => (engine as any).keys.sizes();
    const before = sizes();
    // Pods come and go under new names, uids and labels, each reading its
    // owner, ConfigMap and Secret: a day of a busy namespace.
    const pod = base.find(o => o.kind === 'Pod')!;
    const churn = (from: number) => {
      for (let i = from; i < from + 500; i++) {
        const name = `churn-${i}`;
        const churned = {
          ...pod,
          metadata: {
            ...pod.metadata,
            name,
            uid: `uid-${name}`,
            labels: { ...pod.metadata!.labels, 'pod-template-hash': name },
          },
        };
        engine.apply({ type: 'ADDED', object: churned });
        engine.apply({ type: 'MODIFIED', object: churned });
        engine.apply({ type: 'DELETED', object: churned });
      }
    };
    churn(0);
    const { reads: readsBefore, ...keysBefore } = before;
    const { reads, ...keys } = sizes();
    expect(keys).toEqual(keysBefore);
    // Stale reads are dropped in batches per key (more than 8, more than
    // the live ones): a few wait, however long the churn.
    churn(500);
    churn(1000);
    expect(reads - readsBefore).toBeLessThan(40);
    expect(sizes().reads - readsBefore).toBeLessThan(40);
  });

  it('builds the same tree from a one-shot load as from the objects one event at a time: parents, a cycle cut at its smallest id, children by id, roll-up', () => {
    const owned = (
      kind: string,
      name: string,
      owner: string | undefined,
      status?: Record<string, unknown>,
    ): KubernetesObject => ({
      apiVersion: 'v1',
      kind,
      metadata: {
        name,
        namespace: 'ns',
        uid: `uid-${name}`,
        ownerReferences: owner
          ? [
              {
                kind: 'ConfigMap',
                name: owner,
                uid: `uid-${owner}`,
                controller: true,
              },
            ]
          : undefined,
      },
      status,
    });
    const objects = [
      // A cycle of three (cut at its smallest id, c1) with Pods below it, and a Pod alone.
      owned('ConfigMap', 'c3', 'c2'),
      owned('ConfigMap', 'c1', 'c3'),
      owned('ConfigMap', 'c2', 'c1'),
      owned('Pod', 'p-failed', 'c2', { phase: 'Failed' }),
      owned('Pod', 'p-succeeded', 'c2', { phase: 'Succeeded' }),
      owned('Pod', 'p-pending', 'c3', { phase: 'Pending' }),
      owned('Pod', 'p-alone', undefined, { phase: 'Succeeded' }),
    ];
    const bulk = buildResourceGraph(objects).nodes;
    const oneByOne = new LiveResourceGraph();
    for (const event of added(objects)) oneByOne.apply(event);
    expect(oneByOne.graph().nodes).toEqual(bulk);
    const byId = new Map(bulk.map(node => [node.id, node]));
    expect(byId.get('/ConfigMap/ns/c1')!.parentId).toBeUndefined();
    expect(byId.get('/ConfigMap/ns/c1')!.childIds).toEqual([
      '/ConfigMap/ns/c2',
    ]);
    expect(byId.get('/ConfigMap/ns/c2')!.childIds).toEqual([
      '/ConfigMap/ns/c3',
      '/Pod/ns/p-failed',
      '/Pod/ns/p-succeeded',
    ]);
    expect(byId.get('/ConfigMap/ns/c1')!.subtreeHealth).toBe('Degraded');
    expect(byId.get('/ConfigMap/ns/c3')!.subtreeHealth).toBe('Progressing');
    expect(byId.get('/Pod/ns/p-alone')!.subtreeHealth).toBe('Healthy');
  });

  it('indexes labels only under the names lookups ask for, from the objects already there and those that come after', () => {
    const engine = new GraphEngine();
    const sizes = () => (engine as any).keys.sizes();
    const pod = (name: string, app: string): KubernetesObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'ns',
        uid: `uid-${name}`,
        labels: {
          app,
          'pod-template-hash': name,
          'app.kubernetes.io/name': app,
        },
      },
    });
    const service: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'ns', uid: 'uid-web' },
      spec: { selector: { app: 'web' } },
    };
    engine.load([pod('a', 'web'), pod('b', 'db')]);
    expect(sizes()).toMatchObject({ podLabels: 0, others: 0 });
    const patch = engine.apply([
      { type: 'ADDED', object: service },
      { type: 'ADDED', object: pod('c', 'web') },
    ]);
    // The selector's label name, with the values of every Pod: app=web, app=db.
    expect(sizes()).toMatchObject({ podLabels: 2, others: 0 });
    expect(patch.edgesAdded.map(e => e.target).sort()).toEqual([
      '/Pod/ns/a',
      '/Pod/ns/c',
    ]);
    const later = engine.apply({ type: 'ADDED', object: pod('d', 'web') });
    expect(later.edgesAdded).toEqual([
      { source: '/Service/ns/web', target: '/Pod/ns/d', type: 'selects' },
    ]);
  });
});
