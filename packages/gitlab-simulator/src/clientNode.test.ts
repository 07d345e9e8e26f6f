import { PassThrough } from 'stream';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  Log,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  Watch,
} from '@kubernetes/client-node';
import { DEMO_TOKEN } from './scenario/generate';
import { NONPROD, PROD_US, useSimulator } from './testing/harness';

/** @kubernetes/client-node 1.4.0 pointed at the KAS proxy, as the backend plugin uses it. */
describe('@kubernetes/client-node through the KAS proxy', () => {
  const sim = useSimulator({ logFollowIntervalMs: 20 });

  function kubeConfig(agentId: number, token = DEMO_TOKEN) {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      // client-node 1.4 refuses plain http:// servers unless skipTLSVerify is set.
      clusters: [
        { name: 'kas', server: sim().kasProxyUrl, skipTLSVerify: true },
      ],
      users: [{ name: 'bot', token: `pat:${agentId}:${token}` }],
      contexts: [{ name: 'kas', cluster: 'kas', user: 'bot' }],
      currentContext: 'kas',
    });
    return kc;
  }

  it('lists pods and reads a deployment', async () => {
    const core = kubeConfig(PROD_US).makeApiClient(CoreV1Api);
    const pods = await core.listNamespacedPod({
      namespace: 'search',
      labelSelector: 'app.kubernetes.io/name=search-indexer',
    });
    expect(pods.items.map(p => p.metadata?.name)).toEqual([
      'search-indexer-0',
      'search-indexer-1',
      'search-indexer-2',
    ]);
    expect(pods.items[0].status?.phase).toBe('Running');
    const apps = kubeConfig(PROD_US).makeApiClient(AppsV1Api);
    const deployment = await apps.readNamespacedDeployment({
      name: 'search-api',
      namespace: 'search',
    });
    expect(deployment.status?.conditions?.map(c => c.type)).toEqual([
      'Available',
      'Progressing',
    ]);
  });

  it('pages with limit and _continue', async () => {
    const core = kubeConfig(PROD_US).makeApiClient(CoreV1Api);
    const first = await core.listPodForAllNamespaces({ limit: 5 });
    expect(first.items).toHaveLength(5);
    const rest = await core.listPodForAllNamespaces({
      limit: 500,
      _continue: first.metadata?._continue,
    });
    expect(first.metadata?.remainingItemCount).toBe(rest.items.length);
  });

  it('reads Flux objects through the custom objects API', async () => {
    const custom = kubeConfig(PROD_US).makeApiClient(CustomObjectsApi);
    const ks: any = await custom.getNamespacedCustomObject({
      group: 'kustomize.toolkit.fluxcd.io',
      version: 'v1',
      namespace: 'flux-system',
      plural: 'kustomizations',
      name: 'checkout-api',
    });
    // Five in the checkout namespace, a Namespace, a ClusterRole and a flux-system ConfigMap.
    expect(ks.status.inventory.entries.length).toBe(8);
  });

  it('surfaces KAS and RBAC refusals as ApiExceptions with their codes', async () => {
    const restricted = kubeConfig(4).makeApiClient(CoreV1Api);
    await expect(
      restricted.listNamespacedPod({ namespace: 'notifications' }),
    ).rejects.toMatchObject({ code: 401 });
    const prod = kubeConfig(PROD_US).makeApiClient(CoreV1Api);
    await expect(
      prod.listNamespacedSecret({ namespace: 'storefront' }),
    ).rejects.toMatchObject({ code: 403 });
  });

  it('watches: ADDED for what exists, then DELETED and a replacement after a pod delete', async () => {
    const kc = kubeConfig(NONPROD);
    const events: Array<[string, string]> = [];
    let resolveDone: (value: unknown) => void = () => {};
    const sawReplacement = new Promise(resolve => (resolveDone = resolve));
    const controller = await new Watch(kc).watch(
      '/api/v1/namespaces/notifications-dev/pods',
      { labelSelector: 'app.kubernetes.io/name=notifications-worker' },
      (phase, pod) => {
        events.push([phase, pod.metadata.name]);
        if (
          events.filter(([p]) => p === 'ADDED').length === 3 &&
          events.some(([p]) => p === 'DELETED')
        )
          resolveDone(undefined);
      },
      () => {},
    );
    while (events.length < 2) {
      await new Promise(resolve => setTimeout(resolve, 10));
    }
    const victim = events[0][1];
    await kc
      .makeApiClient(CoreV1Api)
      .deleteNamespacedPod({ name: victim, namespace: 'notifications-dev' });
    await sawReplacement;
    controller.abort();
    expect(events.slice(0, 2).map(([phase]) => phase)).toEqual([
      'ADDED',
      'ADDED',
    ]);
    expect(events).toContainEqual(['DELETED', victim]);
    const [, , replacement] = events.filter(([phase]) => phase === 'ADDED');
    expect(replacement[1]).toMatch(/^notifications-worker-/);
    expect(replacement[1]).not.toBe(victim);
  });

  it('reads and follows pod logs', async () => {
    const kc = kubeConfig(PROD_US);
    const core = kc.makeApiClient(CoreV1Api);
    const [pod] = (
      await core.listNamespacedPod({
        namespace: 'search',
        labelSelector: 'app.kubernetes.io/name=search-indexer',
      })
    ).items;
    const tail = await core.readNamespacedPodLog({
      name: pod.metadata!.name!,
      namespace: 'search',
      tailLines: 3,
    });
    expect(tail.trimEnd().split('\n')).toHaveLength(3);

    const stream = new PassThrough();
    let text = '';
    const enough = new Promise<void>(resolve =>
      stream.on('data', chunk => {
        text += chunk.toString();
        if (text.split('\n').length > 4) resolve();
      }),
    );
    const controller = await new Log(kc).log(
      'search',
      pod.metadata!.name!,
      'indexer',
      stream,
      { follow: true, tailLines: 1 },
    );
    await enough;
    controller.abort();
    expect(text.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(4);
  });

  it('keeps an informer cache in step: list, then watch from its resourceVersion', async () => {
    const kc = kubeConfig(NONPROD);
    const core = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer(
      kc,
      '/api/v1/namespaces/storefront-staging/configmaps',
      () => core.listNamespacedConfigMap({ namespace: 'storefront-staging' }),
    );
    const added: string[] = [];
    const updated: string[] = [];
    let resolveUpdate: () => void = () => {};
    const sawUpdate = new Promise<void>(resolve => (resolveUpdate = resolve));
    informer.on('add', obj => added.push(obj.metadata!.name!));
    informer.on('update', obj => {
      updated.push(obj.metadata!.name!);
      resolveUpdate();
    });
    await informer.start();
    expect(added).toEqual(['storefront-config']);
    await core.patchNamespacedConfigMap(
      {
        name: 'storefront-config',
        namespace: 'storefront-staging',
        body: { data: { EXTRA: '1' } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await sawUpdate;
    await informer.stop();
    expect(updated).toEqual(['storefront-config']);
    expect(
      informer.get('storefront-config', 'storefront-staging')?.data?.EXTRA,
    ).toBe('1');
  });
});
