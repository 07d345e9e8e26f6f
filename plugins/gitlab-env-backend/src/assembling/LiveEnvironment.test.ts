import {
  environmentObject,
  environmentTree,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { POD_KIND } from '../__testUtils__/kinds';
import { SharedInformer } from '../reading/informer';
import { SharedTree } from '../http/sharedTrees';
import { InformerLease, LiveEnvironment } from './LiveEnvironment';
import type { EnvironmentObserver } from './environmentObserver';
import type { LiveTarget } from './liveTarget';

// A read's answer is taken once every list it depends on arrived: a kind
// that moves to another informer while the read waits for something else
// (its Flux objects) is waited for on the informer it moved to.

const pods = POD_KIND;

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'shop', uid: 'pod-web-1' },
  status: { phase: 'Failed' },
} as KubernetesObject;

/** Lets what is under way run: a few turns of the event loop. */
async function turns() {
  for (let i = 0; i < 5; i++)
    await new Promise(resolve => setImmediate(resolve));
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>(resolve => {
    open = resolve;
  });
  return { open, opened };
}

/** An informer of the kind whose lists answer `listed()` (by default `pod` once `listed` opens). */
function informer(
  listed: Promise<void>,
  namespace?: string,
  list: () => KubernetesObject[] = () => [pod],
) {
  const made = new SharedInformer({
    kind: pods,
    namespace,
    mode: 'once',
    list: async () => {
      await listed;
      return list();
    },
    maxObjects: 100,
    maxPagesPerList: 10,
    pollIntervalMs: 60_000,
    watchTimeoutSeconds: 290,
    backoff: { initialMs: 10, maxMs: 20 },
    namespaces: namespace ? undefined : () => new Map([['shop', 1]]),
  });
  made.start();
  return made;
}

function lease(from: SharedInformer, onMove?: (move: () => void) => void) {
  const held: InformerLease = {
    informer: from,
    ready: from.synced,
    onMove: mover => onMove?.(() => mover.moved()),
    state: { resource: 'Pod', mode: 'poll' },
    setLive: () => undefined,
    release: () => void from.stop(),
  };
  return held;
}

const agent = { id: '3', name: 'nonprod' };

/** An environment in `shop` with a Flux object, its Pods read through a module whose `get` reads the Flux object. */
function targetOf(
  get: () => Promise<KubernetesObject | undefined>,
): LiveTarget {
  return {
    entityRef: 'component:default/shop',
    environment: {
      id: '1',
      name: 'staging',
      slug: 'staging',
      tier: 'staging',
      state: 'available',
      namespace: 'shop',
      fluxResourcePath:
        'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/shop',
      agent,
    },
    readKey: 'read|shop',
    agentKey: 'gitlab.example.com|3',
    host: 'gitlab.example.com',
    kinds: [pods],
    allKinds: [pods],
    access: {
      via: 'module',
      target: { host: 'gitlab.example.com', agent },
      source: {
        serves: () => true,
        kinds: async () => [pods],
        list: async () => [],
        get,
      },
    },
    judging: { healthRules: undefined, expectedForbiddenKinds: [] },
  };
}

function environmentOf(
  target: LiveTarget,
  acquire: () => InformerLease,
  observer?: EnvironmentObserver,
  maxObjects = 100,
) {
  return new LiveEnvironment({
    target,
    acquire,
    nextSeq: (() => {
      let seq = 0;
      return () => ++seq;
    })(),
    batchMs: 0,
    pollIntervalMs: 60_000,
    maxObjects,
    maxPagesPerList: 10,
    kindOrder: kinds => kinds.map((_, i) => i),
    onClusterWideRefused: () => undefined,
    observer,
  });
}

describe('LiveEnvironment', () => {
  it('answers from the informer a kind moved to only once its list arrived', async () => {
    const fluxRead = gate();
    const acrossListed = gate();
    const perNamespace = informer(Promise.resolve(), 'shop');
    const across = informer(acrossListed.opened);
    let moveToAcross: (() => void) | undefined;
    const leases = [
      lease(perNamespace, move => {
        moveToAcross = move;
      }),
      lease(across),
    ];
    const target = targetOf(async () => {
      // The Flux object is read while the kinds are listed.
      await fluxRead.opened;
      return undefined;
    });
    const environment = environmentOf(target, () => leases.shift()!);
    let atStart: string[] | undefined;
    const started = environment.start().then(() => {
      atStart = environment
        .snapshot()
        .resources.filter(o => o.kind === 'Pod')
        .map(o => o.metadata!.name!);
    });
    await perNamespace.synced;
    await turns();
    // Another environment of the agent starts an informer across the
    // cluster: the kind moves there before the Flux object is read.
    moveToAcross!();
    fluxRead.open();
    await turns();
    acrossListed.open();
    await started;
    expect(atStart).toEqual(['web-1']);
    environment.stop();
  });

  it('answers and tells its observer the graph of its latest batch, leaving earlier answers as they were', async () => {
    const other = {
      ...pod,
      metadata: { ...pod.metadata, name: 'web-2', uid: 'pod-web-2' },
    };
    let listed = [pod];
    const podInformer = informer(Promise.resolve(), 'shop', () => listed);
    const told: string[][] = [];
    const environment = environmentOf(
      targetOf(async () => undefined),
      () => lease(podInformer),
      {
        observe: observation =>
          told.push(
            observation
              .nodes()
              .filter(n => n.kind === 'Pod')
              .map(n => n.name),
          ),
      },
    );
    const namesOf = (objects: KubernetesObject[]) =>
      objects.filter(o => o.kind === 'Pod').map(o => o.metadata!.name!);
    await environment.start();
    const first = environment.snapshot();
    expect(namesOf(first.resources)).toEqual(['web-1']);
    expect(told).toEqual([['web-1']]);

    listed = [pod, other];
    await podInformer.relist();
    await turns();
    const second = environment.snapshot();
    expect(namesOf(second.resources)).toEqual(['web-1', 'web-2']);
    expect(
      second.graph.nodes.filter(n => n.kind === 'Pod').map(n => n.name),
    ).toEqual(['web-1', 'web-2']);
    expect(told).toEqual([['web-1'], ['web-1', 'web-2']]);
    expect(namesOf(first.resources)).toEqual(['web-1']);
    expect(first.graph.nodes.filter(n => n.kind === 'Pod')).toHaveLength(1);
    environment.stop();
  });

  it('tells a viewer that joins after its start no status nor reset while nothing changed', async () => {
    const podInformer = informer(Promise.resolve(), 'shop');
    const environment = environmentOf(
      targetOf(async () => {
        throw new Error('The Flux object could not be read');
      }),
      () => lease(podInformer),
    );
    await environment.start();
    expect(environment.snapshot().errors).not.toEqual([]);
    const told: string[] = [];
    environment.subscribe(event => told.push(event.type));
    // Everything read again, with the same outcome.
    const now = Date.now();
    await environment.refreshStale({
      listedBefore: now,
      failedBefore: now,
      definitiveFailedBefore: now,
    });
    await turns();
    expect(told).toEqual([]);
    environment.stop();
  });

  it('keeps objects beyond its bound out once a batch reaches it, and takes them in as room frees', async () => {
    const named = (name: string) => ({
      ...pod,
      metadata: { ...pod.metadata, name, uid: `pod-${name}` },
    });
    let listed = [named('web-1'), named('web-2')];
    const podInformer = informer(Promise.resolve(), 'shop', () => listed);
    const environment = environmentOf(
      targetOf(async () => undefined),
      () => lease(podInformer),
      undefined,
      2,
    );
    const namesOf = () =>
      environment
        .snapshot()
        .resources.filter(o => o.kind === 'Pod')
        .map(o => o.metadata!.name!);
    const limited = () =>
      environment.snapshot().errors.some(e => e.code === 'LIMIT_REACHED');
    await environment.start();
    expect(namesOf()).toEqual(['web-1', 'web-2']);
    expect(limited()).toBe(false);

    listed = [named('web-1'), named('web-2'), named('web-3')];
    await podInformer.relist();
    await turns();
    expect(namesOf()).toEqual(['web-1', 'web-2']);
    expect(limited()).toBe(true);

    listed = [named('web-2'), named('web-3')];
    await podInformer.relist();
    await turns();
    expect(namesOf()).toEqual(['web-2', 'web-3']);
    expect(limited()).toBe(false);
    environment.stop();
  });
  it('shows one drift, the one it computed for the state, in its snapshot (count and nodes), the polled tree, the drawer, its patches and its shared tree', async () => {
    const flux = {
      'helm.toolkit.fluxcd.io/name': 'web',
      'helm.toolkit.fluxcd.io/namespace': 'shop',
    };
    const release = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'web', namespace: 'shop', uid: 'hr' },
      status: {
        conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded' }],
      },
    } as KubernetesObject;
    const configMap = (name: string, manager: string) =>
      ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name,
          namespace: 'shop',
          uid: `cm-${name}`,
          labels: flux,
          managedFields: [
            {
              manager,
              operation: 'Update',
              fieldsV1: { 'f:data': { 'f:x': {} } },
            },
          ],
        },
      } as KubernetesObject);
    // An Event in Flux's words about no Flux object, before and after it says so.
    const event = (message: string) =>
      ({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.drift', namespace: 'shop', uid: 'ev' },
        involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'a' },
        type: 'Warning',
        reason: 'DriftDetected',
        lastTimestamp: '2026-11-21T09:31:00Z',
        message,
      } as KubernetesObject);
    const drifting = event(
      'Cluster state of release shop/web.v3 has drifted from the desired state:\nConfigMap/shop/a changed (0 additions, 1 changes, 0 removals)',
    );
    let listed = [release, configMap('a', 'helm-controller'), event('Updated')];
    // A new version of an object each time it changes, as a cluster writes it.
    const versions = new Map<string, string>();
    const informed = informer(Promise.resolve(), 'shop', () =>
      listed.map(o => {
        const json = JSON.stringify(o);
        if (!versions.has(json)) versions.set(json, String(versions.size + 1));
        return {
          ...o,
          metadata: { ...o.metadata, resourceVersion: versions.get(json) },
        };
      }),
    );
    const environment = environmentOf(
      targetOf(async () => undefined),
      () => lease(informed),
    );
    await environment.start();
    const tree = SharedTree.of(environment);
    const patched: number[] = [];
    environment.subscribe(e => {
      if (e.type === 'patch' && e.driftedCount !== undefined)
        patched.push(e.driftedCount);
    });
    const counts = () => {
      const snapshot = tree.snapshot();
      const read = environment.snapshot();
      const drift = read.drift ?? {};
      // The drawer of each drifted object shows the owner's report itself.
      for (const id of Object.keys(drift))
        expect(environmentObject(read, id)?.gitops.drift).toBe(drift[id]);
      return {
        read: read.environment.driftedCount ?? 0,
        readDrift: Object.keys(read.drift ?? {}).length,
        polledMarks: environmentTree(read).graph.nodes.filter(n => n.drifted)
          .length,
        tree: snapshot.environment.driftedCount ?? 0,
        markedInTree: snapshot.nodes.filter(n => n.d).length,
        lastPatch: patched[patched.length - 1] ?? 0,
      };
    };
    const same = (count: number) => ({
      read: count,
      readDrift: count,
      polledMarks: count,
      tree: count,
      markedInTree: count,
      lastPatch: count,
    });
    expect(counts()).toEqual(same(0));

    for (const [objects, count] of [
      [[release, configMap('a', 'kubectl-edit'), event('Updated')], 1],
      [[release, configMap('a', 'helm-controller'), event('Updated')], 0],
      // Only the Event changes: it says the ConfigMap drifted, then not.
      [[release, configMap('a', 'helm-controller'), drifting], 1],
      [[release, configMap('a', 'helm-controller'), event('Updated')], 0],
      [[release, configMap('a', 'kubectl-edit'), configMap('b', 'kubectl')], 2],
    ] as const) {
      listed = [...objects];
      await informed.relist();
      await turns();
      expect(counts()).toEqual(same(count));
    }
    environment.stop();
  });
});
