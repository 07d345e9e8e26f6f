import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import { DEMO_TOKEN } from '../scenario/generate';
import { NONPROD, useSimulator } from '../testing/harness';

/**
 * A reference informer (@kubernetes/client-node 1.4's ListWatch) against the
 * simulator over HTTPS, trusting its certificate: list, watch from the list's
 * resourceVersion, relist after a 410 ERROR event, and what a dropped stream
 * looks like to it.
 */
describe('a client-node informer over HTTPS', () => {
  const sim = useSimulator({
    tls: true,
    tickMs: 0,
    clusterKnobs: { bookmarkIntervalMs: 100 },
  });

  function informer() {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: 'kas',
          server: sim().kasProxyUrl,
          caData: Buffer.from(sim().certificate!).toString('base64'),
        },
      ],
      users: [{ name: 'bot', token: `pat:${NONPROD}:${DEMO_TOKEN}` }],
      contexts: [{ name: 'kas', cluster: 'kas', user: 'bot' }],
      currentContext: 'kas',
    });
    const core = kc.makeApiClient(CoreV1Api);
    return makeInformer(
      kc,
      '/api/v1/namespaces/storefront-staging/configmaps',
      () => core.listNamespacedConfigMap({ namespace: 'storefront-staging' }),
    );
  }

  const next = <T>(register: (resolve: (value: T) => void) => void) =>
    new Promise<T>(register);

  it('relists after the simulator expires its watch with 410, then keeps receiving changes', async () => {
    const inf = informer();
    let connects = 0;
    inf.on('connect', () => {
      connects += 1;
    });
    await inf.start();
    expect(inf.list().map(o => o.metadata!.name)).toEqual([
      'storefront-config',
    ]);
    const reconnected = next<void>(resolve =>
      inf.on('connect', () => resolve()),
    );
    sim().cluster(NONPROD).expireResourceVersions({ openWatches: true });
    await reconnected;
    expect(connects).toBeGreaterThanOrEqual(1);
    const updated = next<string>(resolve =>
      inf.on('update', obj => resolve(obj.metadata!.labels!.touched)),
    );
    // A change made in the cluster (Node's fetch would not trust the self-signed certificate).
    const store = sim().cluster(NONPROD).store;
    const configMaps = store.registry.forKind('', 'ConfigMap')!;
    const cm = store.get(
      configMaps,
      'storefront-staging',
      'storefront-config',
    )!;
    store.upsert({
      ...cm,
      metadata: {
        ...cm.metadata,
        labels: { ...cm.metadata.labels, touched: 'after-410' },
      },
    });
    expect(await updated).toBe('after-410');
    await inf.stop();
  });

  it('reports a stream the simulator cuts mid-way as an error', async () => {
    const inf = informer();
    await inf.start();
    const failed = next<unknown>(resolve =>
      inf.on('error', error => resolve(error)),
    );
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(sim().dropWatches()).toBeGreaterThanOrEqual(1);
    expect(await failed).toBeDefined();
    await inf.stop();
  });
});
