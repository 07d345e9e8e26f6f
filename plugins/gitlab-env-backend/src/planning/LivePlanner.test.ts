import { http, HttpResponse } from 'msw';
import type { LiveTarget } from '../assembling/liveTarget';
import { kasOnMsw, MSW_KAS } from '../__testUtils__/kasOnMsw';
import { POD_KIND } from '../__testUtils__/kinds';
import { testPlanner } from '../__testUtils__/testPlanner';

const { server, agent, kas } = kasOnMsw();

const pod = (namespace: string, name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace, name, uid: `${namespace}-${name}` },
});

/** The cluster's pods, and the lists of one namespace KAS was asked for. */
function clusterOfPods(pods: ReturnType<typeof pod>[]) {
  const namespaceLists: string[] = [];
  const list = (items: unknown[]) =>
    HttpResponse.json({
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '1' },
      items,
    });
  server.use(
    http.get(`${MSW_KAS}/api/v1/pods`, () => list(pods)),
    http.get(`${MSW_KAS}/api/v1/namespaces/:namespace/pods`, ({ params }) => {
      namespaceLists.push(String(params.namespace));
      return list(pods.filter(p => p.metadata.namespace === params.namespace));
    }),
  );
  return { namespaceLists };
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
});
