import { http, HttpResponse } from 'msw';
import type { LiveTarget } from '../assembling/liveTarget';
import { kasOnMsw, MSW_KAS } from '../__testUtils__/kasOnMsw';
import { POD_KIND } from '../__testUtils__/kinds';
import { BUILT_IN_KINDS } from '../reading/builtInKinds';
import { testPlanner } from '../__testUtils__/testPlanner';

const { server, agent, kas } = kasOnMsw();

const pod = (namespace: string, name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace, name, uid: `${namespace}-${name}` },
});

/**
 * The cluster's pods, and what KAS was asked for: lists across the
 * cluster, lists of one namespace, watches across the cluster (held open
 * without events until `endWatches`).
 */
function clusterOfPods(pods: ReturnType<typeof pod>[]) {
  const namespaceLists: string[] = [];
  let clusterLists = 0;
  const watches: ReadableStreamDefaultController<Uint8Array>[] = [];
  let watchOpened!: () => void;
  const firstWatch = new Promise<void>(resolve => {
    watchOpened = resolve;
  });
  const list = (items: unknown[]) =>
    HttpResponse.json({
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '1' },
      items,
    });
  server.use(
    http.get(`${MSW_KAS}/api/v1/pods`, ({ request }) => {
      if (new URL(request.url).searchParams.get('watch') !== '1') {
        clusterLists += 1;
        return list(pods);
      }
      watchOpened();
      return new HttpResponse(
        new ReadableStream<Uint8Array>({ start: c => void watches.push(c) }),
      );
    }),
    http.get(`${MSW_KAS}/api/v1/namespaces/:namespace/pods`, ({ params }) => {
      namespaceLists.push(String(params.namespace));
      return list(pods.filter(p => p.metadata.namespace === params.namespace));
    }),
  );
  return {
    namespaceLists,
    clusterLists: () => clusterLists,
    watches: () => watches.length,
    firstWatch,
    endWatches: () => watches.forEach(c => c.close()),
  };
}

function targetIn(namespace: string, name: string): LiveTarget {
  return {
    entityRef: 'component:default/search',
    environment: {
      id: name,
      name,
      slug: name,
      tier: 'staging',
      state: 'available',
      namespace,
      agent,
    },
    readKey: `read|${name}`,
    agentKey: `gitlab.example.com|${agent.id}`,
    host: 'gitlab.example.com',
    kinds: [POD_KIND],
    access: { via: 'kas', kas: () => kas },
    judging: { healthRules: undefined, expectedForbiddenKinds: [] },
  };
}

/**
 * A lease of namespace `search` joins an informer across the cluster that
 * already listed for `shop`: live (setLive right after acquire, as
 * LiveEnvironment.attach does) or not. What KAS was asked for, once the
 * lease is ready (and the informer watches, for a live one).
 */
async function joinSyncedInformer(setLive: boolean) {
  const upstream = clusterOfPods([
    pod('shop', 'web'),
    pod('search', 'search-api'),
  ]);
  const live = testPlanner(1);
  try {
    const first = live.acquire(targetIn('shop', 'production'), 0);
    await first.ready;
    expect(upstream.clusterLists()).toBe(1);

    const staging = live.acquire(targetIn('search', 'staging'), 0);
    if (setLive) staging.setLive(true);
    expect(staging.informer).toBe(first.informer);
    await staging.ready;
    const { informer } = staging;
    expect(informer.objectsIn('search').map(o => o.metadata?.name)).toEqual([
      'search-api',
    ]);
    expect(informer.covers('search')).toBe(true);
    if (setLive) await upstream.firstWatch;
    [first, staging].forEach(lease => lease.release());
    return {
      namespaceLists: upstream.namespaceLists,
      clusterLists: upstream.clusterLists(),
      watches: upstream.watches(),
    };
  } finally {
    await live.close();
    upstream.endWatches();
  }
}

describe('LivePlanner.acquire on an informer across the cluster', () => {
  it('has every lease of a namespace new to a synced informer wait for its list, when they join in one turn', async () => {
    const { namespaceLists } = clusterOfPods([
      pod('shop', 'web'),
      pod('search', 'search-api'),
      pod('search', 'search-loadgen'),
    ]);
    const live = testPlanner(1);
    try {
      const first = live.acquire(targetIn('shop', 'production'), 0);
      expect(first.informer.options.namespace).toBeUndefined();
      await first.ready;
      // Its first list kept its namespace only.
      expect(first.informer.objectsIn('search')).toEqual([]);

      // Two environments of one namespace (staging and load-test) start
      // together: the first to join decides on the namespace's list; the
      // second finds the namespace known, but not listed yet.
      const staging = live.acquire(targetIn('search', 'staging'), 0);
      const loadTest = live.acquire(targetIn('search', 'load-test'), 0);
      expect(loadTest.informer).toBe(first.informer);

      await loadTest.ready;
      const names = loadTest.informer
        .objectsIn('search')
        .map(o => o.metadata?.name)
        .sort();
      expect(names).toEqual(['search-api', 'search-loadgen']);
      await staging.ready;
      // One list of the namespace for both.
      expect(namespaceLists).toEqual(['search']);
      [first, staging, loadTest].forEach(lease => lease.release());
    } finally {
      await live.close();
    }
  });

  it('has a live lease of a namespace new to a synced informer covered by its watch relist, not a list of its own', async () => {
    // Its setLive makes the informer watch: the namespace is listed with
    // the rest (a relist, then the watch), not alone beside the watch. A
    // decision taken before setLive would list it alone.
    expect(await joinSyncedInformer(true)).toEqual({
      namespaceLists: [],
      clusterLists: 2,
      watches: 1,
    });
  });

  it('has a lease that is not live, of a namespace new to a synced informer, wait for one list of that namespace alone', async () => {
    expect(await joinSyncedInformer(false)).toEqual({
      namespaceLists: ['search'],
      clusterLists: 1,
      watches: 0,
    });
  });
});

describe('LivePlanner, for environments that share their kinds', () => {
  const builtIn = (kind: string) => BUILT_IN_KINDS.find(k => k.kind === kind)!;

  it('keeps one informer across the cluster per label selector', async () => {
    clusterOfPods([pod('shop', 'web'), pod('search', 'search-api')]);
    const live = testPlanner(1);
    try {
      const kinds = [POD_KIND];
      const selected = (namespace: string, name: string, selector: string) => ({
        ...targetIn(namespace, name),
        kinds,
        labelSelector: selector,
      });
      const web = live.acquire(selected('shop', 'production', 'app=web'), 0);
      const search = live.acquire(
        selected('search', 'staging', 'app=search'),
        0,
      );
      const webStaging = live.acquire(
        selected('search', 'web-staging', 'app=web'),
        0,
      );
      expect(web.informer.options.namespace).toBeUndefined();
      expect(search.informer).not.toBe(web.informer);
      expect(search.informer.options.labelSelector).toBe('app=search');
      expect(webStaging.informer).toBe(web.informer);
      const leases = [web, search, webStaging];
      await Promise.all(leases.map(lease => lease.ready));
      leases.forEach(lease => lease.release());
    } finally {
      await live.close();
    }
  });

  it('orders each list of kinds by its own kinds (a read lists the largest first)', async () => {
    const asked: string[] = [];
    server.use(
      http.get(
        `${MSW_KAS}/api/v1/namespaces/:namespace/:plural`,
        ({ params }) => {
          asked.push(`${params.namespace}/${params.plural}`);
          return HttpResponse.json({
            metadata: { resourceVersion: '1' },
            items: [],
          });
        },
      ),
    );
    const live = testPlanner();
    try {
      const discovered = new Promise<never>(() => undefined);
      live.listEarly(
        {
          ...targetIn('shop', 'production'),
          kinds: [POD_KIND, builtIn('Event')],
        },
        discovered,
      );
      live.listEarly(
        {
          ...targetIn('search', 'staging'),
          kinds: [POD_KIND, builtIn('ConfigMap')],
        },
        discovered,
      );
      await new Promise(resolve => setTimeout(resolve, 50));
      expect(asked).toEqual([
        'shop/events',
        'shop/pods',
        'search/pods',
        'search/configmaps',
      ]);
    } finally {
      await live.close();
    }
  });
});
