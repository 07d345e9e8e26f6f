import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import { InformerEvent, ListedKind, SharedInformer } from './informer';
import { inspectOrWarn } from './objectSource';
import { ReadBounds } from './readBounds';
import { informerStrings, StringPool } from './stringPool';

const secrets = {
  group: '',
  version: 'v1',
  plural: 'secrets',
  kind: 'Secret',
  label: 'Secret',
  basePath: '/api/v1',
};

const PLANNED = { apiVersion: 'v1', kind: 'Secret' };

/** The bounds and timings of the informers here. */
const LIMITS = {
  maxObjects: 100,
  maxPagesPerList: 10,
  pollIntervalMs: 60_000,
  watchTimeoutSeconds: 290,
  backoff: { initialMs: 10, maxMs: 20 },
};

function secret(name: string, resourceVersion: string) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion },
    data: { token: 'c2VjcmV0' },
  };
}

/** An item of an answer as listKind takes it: validated, redacted, pooled in the bounds' pool. */
function readAsListKindDoes(
  item: unknown,
  bounds: ReadBounds,
): KubernetesObject {
  return inspectOrWarn(item, PLANNED, 'Secret', bounds, 'shop', true)!;
}

/** A scripted API server: each watch request plays the next script (an Error in it is thrown). */
function informerOn(scripts: unknown[][], pollIntervalMs = 60_000) {
  const queries: URLSearchParams[] = [];
  let lists = 0;
  const informer = new SharedInformer({
    kind: secrets,
    namespace: 'shop',
    mode: 'watch',
    list: async ({ bounds, onResourceVersion }) => {
      lists += 1;
      onResourceVersion('10');
      return [
        readAsListKindDoes(secret('listed-by-the-informer', '10'), bounds),
      ];
    },
    async *watch({ query, signal, onOpen }) {
      queries.push(query);
      onOpen();
      for (const event of scripts.shift() ?? []) {
        if (event instanceof Error) throw event;
        yield event;
      }
      // The server keeps the stream open until the informer ends it.
      await new Promise(resolve =>
        signal.addEventListener('abort', resolve, { once: true }),
      );
    },
    ...LIMITS,
    pollIntervalMs,
  });
  const events: InformerEvent[] = [];
  informer.subscribe({ events: e => events.push(...e), state: () => {} });
  return { informer, events, queries, lists: () => lists };
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++)
    await new Promise(resolve => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('SharedInformer', () => {
  it('takes a list started before it as its first list, its failure included, and lists upstream after', async () => {
    let upstream = 0;
    const asked: Array<ReadonlySet<string> | undefined> = [];
    let early: Promise<ListedKind> | undefined = Promise.resolve({
      objects: [secret('early', '5') as unknown as KubernetesObject],
      resourceVersion: '5',
      warnings: [],
      limited: false,
      listedAt: new Date().toISOString(),
    });
    const informer = new SharedInformer({
      kind: secrets,
      namespace: 'shop',
      mode: 'once',
      list: async () => {
        upstream += 1;
        return [secret('listed', '10') as unknown as KubernetesObject];
      },
      earlyList: namespaces => {
        asked.push(namespaces);
        const taken = early;
        early = undefined;
        return taken;
      },
      ...LIMITS,
    });
    informer.start();
    await informer.synced;
    expect(informer.objectsIn('shop').map(o => o.metadata?.name)).toEqual([
      'early',
    ]);
    expect(upstream).toBe(0);
    // Of one namespace: asked for all it keeps.
    expect(asked).toEqual([undefined]);
    await informer.relist();
    expect(informer.objectsIn('shop').map(o => o.metadata?.name)).toEqual([
      'listed',
    ]);
    expect(upstream).toBe(1);
    expect(asked).toHaveLength(1);
    void informer.stop();

    // A list that failed before it is its first list's failure.
    const refused = new SharedInformer({
      kind: secrets,
      namespace: 'shop',
      mode: 'once',
      list: async () => [],
      earlyList: () =>
        Promise.reject(failure('KIND_FORBIDDEN', 'RBAC refuses Secrets.')),
      ...LIMITS,
    });
    refused.start();
    await refused.synced;
    expect(refused.error?.code).toBe('KIND_FORBIDDEN');
    void refused.stop();
  });

  it('redacts Secrets in watch events, fail-closed, and leaves out malformed objects with a warning', async () => {
    const { informer, events } = informerOn([
      [
        { type: 'ADDED', object: secret('watched', '11') },
        // Claims another kind: still asked for as a Secret, still redacted.
        {
          type: 'ADDED',
          object: { ...secret('disguised', '12'), kind: 'ConfigMap' },
        },
        { type: 'ADDED', object: { metadata: { name: 7 } } },
      ],
    ]);
    informer.start();
    await until(() => events.length === 3);
    await informer.stop();
    // The first is the list's (listKind validates lists, as reads do).
    const watched = events.slice(1);
    expect(watched.map(e => e.object.metadata?.name)).toEqual([
      'watched',
      'disguised',
    ]);
    expect(watched.map(e => e.object.data)).toEqual([
      { token: '<redacted>' },
      { token: '<redacted>' },
    ]);
    expect(watched.map(e => e.object.kind)).toEqual(['Secret', 'Secret']);
    expect(informer.warnings.map(w => w.warning.code)).toEqual([
      'UPSTREAM_MALFORMED',
    ]);
  });

  it('watches from the list’s resourceVersion with bookmarks, follows bookmarks, and lists again on 410 Gone', async () => {
    const { informer, queries, lists } = informerOn([
      [
        { type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } },
        {
          type: 'ERROR',
          object: { kind: 'Status', code: 410, reason: 'Expired' },
        },
      ],
    ]);
    informer.start();
    await until(() => queries.length === 2);
    await informer.stop();
    expect(queries[0].get('resourceVersion')).toBe('10');
    expect(queries[0].get('allowWatchBookmarks')).toBe('true');
    expect(lists()).toBe(2);
    // After the relist, the watch starts from the new list's version.
    expect(queries[1].get('resourceVersion')).toBe('10');
  });

  it('lists again a poll interval after the cluster refuses its watch, so the data does not go stale', async () => {
    const { informer, queries, lists } = informerOn(
      [[failure('KIND_FAILED', 'Reading Secret failed with HTTP 400.')]],
      20,
    );
    informer.start();
    await until(() => queries.length === 2);
    await informer.stop();
    expect(lists()).toBe(2);
  });

  it('shares the short string values of what it lists and watches, objects unchanged', async () => {
    const watched = {
      ...secret('watched-once', '11'),
      metadata: {
        ...secret('watched-once', '11').metadata,
        labels: { team: 'informer-test-team' },
      },
    };
    const { informer, events } = informerOn([
      [{ type: 'ADDED', object: watched }],
    ]);
    informer.start();
    await until(() => events.length === 2);
    await informer.stop();
    expect(events[1].object.metadata?.labels).toEqual({
      team: 'informer-test-team',
    });
    expect(informerStrings.has('informer-test-team')).toBe(true);
    expect(informerStrings.has('listed-by-the-informer')).toBe(true);
    expect(informerStrings.has('uid-watched-once')).toBe(false);
  });

  it('has a first list pool strings as it reads them, and pools itself what a relist changed', async () => {
    const pools: Array<StringPool | undefined> = [];
    let version = 10;
    const informer = new SharedInformer({
      kind: secrets,
      namespace: 'shop',
      mode: 'once',
      list: async ({ bounds }) => {
        pools.push(bounds.strings);
        const listed = {
          ...secret('relisted', String(version)),
          metadata: {
            ...secret('relisted', String(version)).metadata,
            labels: { team: `relisted-team-${version}` },
          },
        };
        version += 1;
        return [readAsListKindDoes(listed, bounds)];
      },
      ...LIMITS,
    });
    informer.start();
    await informer.synced;
    await informer.relist();
    await informer.stop();
    expect(pools).toEqual([informerStrings, undefined]);
    expect(informerStrings.has('relisted-team-10')).toBe(true);
    expect(informerStrings.has('relisted-team-11')).toBe(true);
    expect(informer.objectsIn('shop')[0].metadata?.labels).toEqual({
      team: 'relisted-team-11',
    });
  });

  it('stops when stopped as its first list answers, before it pauses', async () => {
    const informer = new SharedInformer({
      kind: secrets,
      namespace: 'shop',
      mode: 'once',
      list: async () => [secret('listed', '10') as unknown as KubernetesObject],
      ...LIMITS,
    });
    informer.start();
    await informer.synced;
    await informer.stop();
    expect(informer.state).toBe('stopped');
  });

  describe('across the cluster', () => {
    function inNamespace(namespace: string, name: string) {
      return {
        ...secret(name, '10'),
        metadata: { ...secret(name, '10').metadata, namespace },
      } as unknown as KubernetesObject;
    }
    const cluster = [inNamespace('a', 'x'), inNamespace('b', 'y')];

    function gate() {
      let open!: () => void;
      const opened = new Promise<void>(resolve => {
        open = resolve;
      });
      return { open, opened };
    }

    /** An informer across the cluster keeping `namespaces`; the lists wait on the gates given. */
    function clusterInformer(
      namespaces: Map<string, number>,
      gates: {
        page?: Promise<void>;
        end?: Promise<void>;
        alone?: () => Promise<void>;
      },
      keepEveryNamespace = false,
    ) {
      return new SharedInformer({
        keepEveryNamespace,
        kind: secrets,
        mode: 'once',
        list: async ({ keep, namespace }) => {
          if (namespace !== undefined) {
            await gates.alone?.();
            return cluster.filter(o => o.metadata?.namespace === namespace);
          }
          // Each page is filtered when it arrives, as listKind does.
          await gates.page;
          const kept = cluster.filter(o => keep!(o.metadata!.namespace!));
          await gates.end;
          return kept;
        },
        ...LIMITS,
        namespaces: () => namespaces,
      });
    }

    it('keeps a namespace dropped and joined again during a list, as its own list found it', async () => {
      const namespaces = new Map([
        ['a', 1],
        ['b', 1],
      ]);
      const gates: Parameters<typeof clusterInformer>[1] = {};
      const informer = clusterInformer(namespaces, gates);
      informer.start();
      await informer.synced;
      expect(informer.objectsIn('b')).toHaveLength(1);
      const page = gate();
      const end = gate();
      Object.assign(gates, { page: page.opened, end: end.opened });
      const relisted = informer.relist();
      await new Promise(resolve => setImmediate(resolve));
      // The last reader of b leaves while the list is under way, its
      // page arrives without b, and a new reader of b joins.
      namespaces.delete('b');
      informer.forgetNamespace('b');
      page.open();
      await new Promise(resolve => setImmediate(resolve));
      namespaces.set('b', 1);
      await informer.listNamespace('b');
      expect(informer.objectsIn('b')).toHaveLength(1);
      end.open();
      await relisted;
      expect(informer.objectsIn('b').map(o => o.metadata?.name)).toEqual(['y']);
      expect(informer.objectsIn('a')).toHaveLength(1);
      // Not awaited, as the planner does not wait for it either.
      void informer.stop();
    });

    it('says a namespace’s own list failed until a list covers it', async () => {
      const namespaces = new Map([['a', 1]]);
      let fail = true;
      const informer = clusterInformer(namespaces, {
        alone: async () => {
          if (fail)
            throw failure('UPSTREAM_TIMEOUT', 'KAS did not answer in time.');
        },
      });
      informer.start();
      await informer.synced;
      namespaces.set('b', 1);
      await informer.listNamespace('b');
      expect(informer.objectsIn('b')).toEqual([]);
      expect(informer.namespaceFailure('b')?.error.code).toBe(
        'UPSTREAM_TIMEOUT',
      );
      expect(informer.namespaceFailure('a')).toBeUndefined();
      fail = false;
      await informer.relist();
      expect(informer.namespaceFailure('b')).toBeUndefined();
      expect(informer.objectsIn('b')).toHaveLength(1);
      // Not awaited, as the planner does not wait for it either.
      void informer.stop();
    });

    it('keeping every namespace until narrowed, covers the namespaces that join meanwhile without listing them alone', async () => {
      const namespaces = new Map([['a', 1]]);
      const page = gate();
      let alone = 0;
      const informer = clusterInformer(
        namespaces,
        {
          page: page.opened,
          alone: async () => {
            alone += 1;
          },
        },
        true,
      );
      informer.start();
      await new Promise(resolve => setImmediate(resolve));
      // b joins while the list is under way, before its page arrives.
      namespaces.set('b', 1);
      page.open();
      await informer.synced;
      expect(informer.covers('b')).toBe(true);
      expect(informer.objectsIn('b').map(o => o.metadata?.name)).toEqual(['y']);
      // Nobody reads c: it is covered (absent there means absent) until narrowed.
      expect(informer.covers('c')).toBe(true);
      informer.narrow();
      expect(informer.covers('a')).toBe(true);
      expect(informer.covers('b')).toBe(true);
      expect(informer.covers('c')).toBe(false);
      expect(alone).toBe(0);
      // A namespace nobody reads any more is dropped from then on.
      namespaces.delete('b');
      informer.forgetNamespace('b');
      expect(informer.objectsIn('b')).toEqual([]);
      void informer.stop();
    });

    it('narrowed while its list of every namespace is under way, keeps and covers only the namespaces read then', async () => {
      const namespaces = new Map([['a', 1]]);
      const end = gate();
      const informer = clusterInformer(namespaces, { end: end.opened }, true);
      informer.start();
      await new Promise(resolve => setImmediate(resolve));
      // Every page was kept (b's too), but nobody reads b when narrowed.
      informer.narrow();
      end.open();
      await informer.synced;
      expect(informer.objectsIn('a')).toHaveLength(1);
      expect(informer.objectsIn('b')).toEqual([]);
      expect(informer.covers('a')).toBe(true);
      expect(informer.covers('b')).toBe(false);
      void informer.stop();
    });
  });
});
