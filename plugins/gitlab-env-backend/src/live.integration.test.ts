import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  applyResourceGraphPatch,
  buildGitOpsView,
  DesiredStateComparison,
  environmentDrift,
  EnvironmentResourcesResponse,
  LiveMessage,
  PatchableResources,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  BENCH_AGENT,
  CHANGED_AT,
  environmentSlug,
  FaultKnobs,
  generateScenario,
  RunningSimulator,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import {
  ownedComponent,
  storefrontComponent,
  startBackendOnSimulator,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { openLiveStream, ReceivedEvent } from './__testUtils__/liveStream';
import { plannerOnSimulator } from './__testUtils__/plannerOnSimulator';
import { waitFor } from './__testUtils__/waitFor';

const storefront = storefrontComponent();
const STAGING = 'component:default/storefront/staging';
const REVIEW_SLUG = environmentSlug('review/feature-cart');
const REVIEW = `component:default/storefront/${REVIEW_SLUG}`;
const checkout = ownedComponent('checkout-api', 'acme/shop/checkout-api');
const CHECKOUT_ENTITY = 'component:default/checkout-api';
const CHECKOUT_STAGING = `${CHECKOUT_ENTITY}/staging`;
const NAMESPACE = 'storefront-staging';

type Of<T extends LiveMessage['type']> = Extract<LiveMessage, { type: T }>;
const is =
  <T extends LiveMessage['type']>(type: T, test?: (m: Of<T>) => boolean) =>
  (e: ReceivedEvent) =>
    e.message.type === type && (!test || test(e.message as Of<T>));

function podsOf(simulator: RunningSimulator) {
  const { store } = simulator.cluster('nonprod');
  const pods = store.registry.forKind('', 'Pod')!;
  return { store, pods, list: () => store.list(pods, NAMESPACE) };
}

async function startBackend(
  simulator: RunningSimulator,
  live: Record<string, unknown> = {},
  features: Parameters<typeof startBackendOnSimulator>[1]['features'] = [],
  otherEntities: Entity[] = [],
) {
  const backend = await startBackendOnSimulator(simulator, {
    entities: [storefront, ...otherEntities],
    gitlabEnv: {
      requestTimeoutMs: 5000,
      live: {
        graceSeconds: 0.3,
        reconnectInitialMs: 50,
        reconnectMaxMs: 200,
        heartbeatSeconds: 1,
        ...live,
      },
    },
    features,
  });
  const { port } = backend.server.address() as AddressInfo;
  return { backend, url: `http://127.0.0.1:${port}` };
}

function userOf(credentials?: BackstageCredentials): string | undefined {
  const principal = credentials?.principal as { userEntityRef?: string };
  return principal?.userEntityRef;
}

/**
 * Opens a stream until its first id (every environment had its snapshot),
 * closes it and answers the id: what a tab holds before it reconnects.
 */
async function heldUpTo(
  url: string,
  environments: string[],
  headers: Record<string, string> = {},
): Promise<string> {
  const stream = await openLiveStream(url, environments, headers);
  try {
    await stream.next(is('snapshot'));
    return (await stream.next(e => e.id !== undefined)).id!;
  } finally {
    await stream.close();
  }
}

/** Writes the first pod of NAMESPACE with its metadata changed (a new name: a new pod). */
function changeFirstPod(
  simulator: RunningSimulator,
  change: object | ((pod: any) => object),
) {
  const { store, list } = podsOf(simulator);
  const [pod] = list();
  const changes = typeof change === 'function' ? change(pod) : change;
  store.upsert({ ...pod, metadata: { ...pod.metadata, ...changes } });
}

/** Labels a pod of the namespace `<label>: yes` in the simulator's nonprod cluster. */
function labelPod(
  simulator: RunningSimulator,
  namespace: string,
  label: string,
) {
  const { store } = simulator.cluster('nonprod');
  const [pod] = store.list(store.registry.forKind('', 'Pod')!, namespace);
  store.upsert({
    ...pod,
    metadata: {
      ...pod.metadata,
      labels: { ...pod.metadata.labels, [label]: 'yes' },
    },
  });
}

const labelled = (label: string) => (m: Of<'patch'>) =>
  m.patch.objectsUpserted.some(o => o.metadata?.labels?.[label] === 'yes');

/** Watch requests the simulator serves right now for the agent. */
function openWatches(simulator: RunningSimulator) {
  return simulator.cluster('nonprod').openWatches();
}

jest.setTimeout(20_000);

describe('GET /live against the simulator', () => {
  let simulator: RunningSimulator;

  beforeEach(async () => {
    simulator = await startTestSimulator();
  });
  afterEach(async () => {
    await simulator.close();
  });

  it('sends a snapshot, then patches for added, modified and deleted pods', async () => {
    const { backend, url } = await startBackend(simulator);
    const stream = await openLiveStream(url, [STAGING]);
    try {
      expect(stream.response.headers.get('content-type')).toMatch(
        /^text\/event-stream/,
      );
      const snapshot = await stream.next(is('snapshot'));
      const first = snapshot.message as Of<'snapshot'>;
      expect(first.key).toEqual({
        entityRef: 'component:default/storefront',
        slug: 'staging',
      });
      expect(first.resources.scope.namespace).toBe(NAMESPACE);
      expect(first.resources.resources.some(r => r.kind === 'Pod')).toBe(true);
      const status = await stream.next(is('status'));
      expect((status.message as Of<'status'>).upstream).toBe('live');

      const { store, pods, list } = podsOf(simulator);
      const [pod] = list();
      const added = {
        ...pod,
        metadata: { ...pod.metadata, name: 'added-pod', uid: 'uid-added-pod' },
      };
      store.upsert(added);
      const addedPatch = await stream.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(o => o.metadata?.name === 'added-pod'),
        ),
      );
      expect(
        (addedPatch.message as Of<'patch'>).patch.nodesAdded.length,
      ).toBeGreaterThan(0);

      store.upsert({
        ...added,
        metadata: {
          ...added.metadata,
          labels: { ...added.metadata.labels, touched: 'yes' },
        },
      });
      await stream.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(
            o =>
              o.metadata?.name === 'added-pod' &&
              o.metadata?.labels?.touched === 'yes',
          ),
        ),
      );

      store.remove(pods, NAMESPACE, 'added-pod');
      const removed = await stream.next(
        is('patch', m => m.patch.objectsRemoved.length > 0),
      );
      expect(
        (removed.message as Of<'patch'>).patch.nodesRemoved.length,
      ).toBeGreaterThan(0);
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it("answers a read of an environment someone follows from the live state: 0 upstream requests, the stream's objects", async () => {
    const { backend, url } = await startBackend(simulator);
    const stream = await openLiveStream(url, [STAGING]);
    const resources = `${url}/api/gitlab-env/entity/default/component/storefront/environments/staging/resources`;
    try {
      await stream.next(is('snapshot'));
      // A change arrives through the watch; the read shows it.
      changeFirstPod(simulator, {
        name: 'watched-pod',
        uid: 'uid-watched-pod',
      });
      const patched = await stream.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(o => o.metadata?.name === 'watched-pod'),
        ),
      );
      simulator.resetStats();
      const read = (await (
        await fetch(resources)
      ).json()) as EnvironmentResourcesResponse;
      expect(simulator.stats().requests).toBe(0);
      expect(read.resources.map(o => o.metadata?.name)).toContain(
        'watched-pod',
      );
      expect(read.fetchedAt).toBe((patched.message as Of<'patch'>).dataAt);
      // The environments list's health (asked for) is the same state's.
      const list2 = await (
        await fetch(
          `${url}/api/gitlab-env/entity/default/component/storefront/environments?withHealth=true`,
        )
      ).json();
      expect(
        list2.environments.find((e: { slug: string }) => e.slug === 'staging')
          .health,
      ).toEqual(read.health);
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('lists again after 410 Gone and after dropped streams, without losing changes', async () => {
    const { backend, url } = await startBackend(simulator);
    const stream = await openLiveStream(url, [STAGING]);
    try {
      await stream.next(is('snapshot'));
      const { store, list } = podsOf(simulator);
      const [pod] = list();

      simulator
        .cluster('nonprod')
        .expireResourceVersions({ openWatches: true });
      store.upsert({
        ...pod,
        metadata: {
          ...pod.metadata,
          labels: { ...pod.metadata.labels, after: 'gone' },
        },
      });
      await stream.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(
            o => o.metadata?.labels?.after === 'gone',
          ),
        ),
      );

      simulator.dropWatches({ abrupt: true });
      store.upsert({
        ...pod,
        metadata: {
          ...pod.metadata,
          labels: { ...pod.metadata.labels, after: 'drop' },
        },
      });
      await stream.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(
            o => o.metadata?.labels?.after === 'drop',
          ),
        ),
      );
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('says reconnecting while the agent is disconnected and catches up when it is back', async () => {
    const { backend, url } = await startBackend(simulator);
    const stream = await openLiveStream(url, [STAGING]);
    try {
      await stream.next(is('snapshot'));
      simulator.setFaults({ disconnectedAgents: ['nonprod'] });
      const from = stream.events.length;
      await stream.next(
        is('status', m => m.upstream === 'reconnecting'),
        { from },
      );
      changeFirstPod(simulator, pod => ({
        labels: { ...pod.metadata.labels, while: 'away' },
      }));
      simulator.setFaults({ disconnectedAgents: [] });
      await stream.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(
            o => o.metadata?.labels?.while === 'away',
          ),
        ),
        { from },
      );
      await stream.next(
        is('status', m => m.upstream === 'live'),
        { from },
      );
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('shares one watch per kind between viewers and stops it a grace period after the last leaves', async () => {
    const { backend, url } = await startBackend(simulator);
    const viewers = [await openLiveStream(url, [STAGING])];
    try {
      await viewers[0].next(is('snapshot'));
      const status = (await viewers[0].next(is('status')))
        .message as Of<'status'>;
      const watched = status.kinds.filter(k => k.mode === 'watch').length;
      await waitFor(() => openWatches(simulator) > 0);
      await new Promise(resolve => setTimeout(resolve, 300));
      const forOne = openWatches(simulator);
      // Kinds RBAC refuses are retried, not held open.
      expect(forOne).toBeLessThanOrEqual(watched);
      viewers.push(
        ...(await Promise.all(
          [1, 2, 3, 4].map(() => openLiveStream(url, [STAGING])),
        )),
      );
      await Promise.all(viewers.map(v => v.next(is('snapshot'))));
      await new Promise(resolve => setTimeout(resolve, 300));
      // One watch per kind whatever the number of viewers.
      expect(openWatches(simulator)).toBe(forOne);
      await Promise.all(viewers.map(v => v.close()));
      // Still held during the grace period (0.3 s here), gone after it.
      expect(openWatches(simulator)).toBe(forOne);
      await waitFor(() => openWatches(simulator) === 0);
    } finally {
      await Promise.all(viewers.map(v => v.close()));
      await backend.stop();
    }
  });

  it('polls the kinds beyond the watch cap and says why', async () => {
    const { backend, url } = await startBackend(simulator, {
      maxWatchesPerAgent: 2,
    });
    const stream = await openLiveStream(url, [STAGING]);
    try {
      const status = (await stream.next(is('status'))).message as Of<'status'>;
      const watched = status.kinds.filter(k => k.mode === 'watch');
      const polled = status.kinds.filter(k => k.mode === 'poll');
      expect(watched.map(k => k.resource)).toEqual(['Pod', 'apps/Deployment']);
      expect(polled.length).toBeGreaterThan(0);
      expect(polled[0].reason).toMatch(/maxWatchesPerAgent/);
      expect(openWatches(simulator)).toBe(2);
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('gives the watch slot of a kind the cluster refuses to a polled kind, and takes it back only within the cap', async () => {
    // Pods … CronJobs, then Services (refused), then Ingresses: 8 slots.
    simulator.setFaults({ forbiddenKinds: ['services'] });
    const { backend, url } = await startBackend(simulator, {
      maxWatchesPerAgent: 8,
      pollIntervalSeconds: 1,
    });
    const stream = await openLiveStream(url, [STAGING]);
    const modeOf = (m: Of<'status'>, resource: string) =>
      m.kinds.find(k => k.resource === resource)?.mode;
    try {
      // A refused kind holds no watch (its list failed), so no tunnel.
      await stream.next(
        is('status', m => modeOf(m, 'networking.k8s.io/Ingress') === 'watch'),
      );
      await waitFor(() => openWatches(simulator) === 8);
      const reasonOf = (m: Of<'status'>, resource: string) =>
        m.kinds.find(k => k.resource === resource)?.reason ?? '';
      // The page is told the truth: it is listed again, not watched.
      await stream.next(
        is(
          'status',
          m =>
            modeOf(m, 'Service') === 'poll' &&
            /The cluster refuses it/.test(reasonOf(m, 'Service')),
        ),
      );
      // Allowed again, Services list, but every slot is taken: polled, or
      // watched in the slot of a kind that stayed empty for a poll interval
      // (which is then polled for having no objects). Either way within the
      // cap.
      simulator.setFaults({ forbiddenKinds: [] });
      await stream.next(
        is(
          'status',
          m =>
            (modeOf(m, 'Service') === 'poll' &&
              /maxWatchesPerAgent/.test(reasonOf(m, 'Service'))) ||
            (modeOf(m, 'Service') === 'watch' &&
              m.kinds.some(
                k => k.mode === 'poll' && /No objects yet/.test(k.reason ?? ''),
              )),
        ),
      );
      await new Promise(resolve => setTimeout(resolve, 500));
      expect(openWatches(simulator)).toBe(8);
      // Its objects arrive with the snapshot that clears the refusal.
      await stream.next(
        is('snapshot', m =>
          m.resources.resources.some(o => o.kind === 'Service'),
        ),
      );
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('resumes a reconnecting stream from Last-Event-ID with the missed patches, without a snapshot', async () => {
    // Within the grace period the environment's state and patches are kept.
    const { backend, url } = await startBackend(simulator, { graceSeconds: 5 });
    const lastId = await heldUpTo(url, [STAGING]);
    labelPod(simulator, NAMESPACE, 'missed');
    await new Promise(resolve => setTimeout(resolve, 500));
    const resumed = await openLiveStream(
      url,
      { resume: [STAGING] },
      { 'last-event-id': lastId },
    );
    try {
      await resumed.next(is('patch', labelled('missed')));
      expect(resumed.events.some(e => e.event === 'snapshot')).toBe(false);
      // An id from another process (or too old) gets a fresh snapshot.
      const fresh = await openLiveStream(
        url,
        { resume: [STAGING] },
        { 'last-event-id': '1' },
      );
      try {
        await fresh.next(is('snapshot'));
      } finally {
        await fresh.close();
      }
    } finally {
      await resumed.close();
      await backend.stop();
    }
  });

  it('replays the environments a changed set keeps and sends a snapshot only for the new one', async () => {
    const { backend, url } = await startBackend(simulator, { graceSeconds: 5 });
    const lastId = await heldUpTo(url, [STAGING]);
    labelPod(simulator, NAMESPACE, 'missed');
    await new Promise(resolve => setTimeout(resolve, 500));
    // The tab opened a second environment: it holds staging up to lastId.
    const changed = await openLiveStream(
      url,
      { environment: [REVIEW], resume: [STAGING] },
      { 'last-event-id': lastId },
    );
    try {
      const snapshot = await changed.next(is('snapshot'));
      expect((snapshot.message as Of<'snapshot'>).key).toEqual({
        entityRef: 'component:default/storefront',
        slug: REVIEW_SLUG,
      });
      await changed.next(
        is('patch', m => m.key.slug === 'staging' && labelled('missed')(m)),
      );
      // Once both are sent, ids resume: the next request may name both.
      await changed.next(e => e.id !== undefined);
      const snapshots = changed.events.filter(is('snapshot'));
      expect(
        snapshots.map(e => (e.message as Of<'snapshot'>).key.slug),
      ).toEqual([REVIEW_SLUG]);
    } finally {
      await changed.close();
      await backend.stop();
    }
  });

  it('sends a snapshot for a resumed environment when no Last-Event-ID says what the client holds', async () => {
    const { backend, url } = await startBackend(simulator);
    const stream = await openLiveStream(url, { resume: [STAGING] });
    try {
      const snapshot = await stream.next(
        is('snapshot', m => m.key.slug === 'staging'),
      );
      expect(
        (snapshot.message as Of<'snapshot'>).resources.resources.length,
      ).toBeGreaterThan(0);
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('lists a polled kind again at once when a write asks for it (LivePlanner.refresh)', async () => {
    const { service, planner } = plannerOnSimulator(simulator, {
      maxWatchesPerAgent: 1,
      pollIntervalSeconds: 600,
    });
    try {
      const target = await service.locateLive(storefront, 'staging');
      const { environment, release } = await planner.follow(target);
      const patches: Array<Extract<LiveMessage, { type: 'patch' }>['patch']> =
        [];
      environment.subscribe(e => {
        if (e.type === 'patch') patches.push(e.patch);
      });
      const { store } = simulator.cluster('nonprod');
      store.upsert({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'written', namespace: NAMESPACE, uid: 'uid-written' },
        data: { a: 'b' },
      });
      const agent = target.environment.agent!;
      expect(
        planner.refresh({
          agent: { host: 'gitlab.example.com', id: agent.id },
          namespace: NAMESPACE,
          resource: { group: '', kind: 'ConfigMap' },
        }),
      ).toBe(1);
      await waitFor(() =>
        patches.some(p =>
          p.objectsUpserted.some(o => o.metadata?.name === 'written'),
        ),
      );
      release();
    } finally {
      await planner.close();
    }
  });

  it('polls a kind the API server does not watch, without taking a watch slot', async () => {
    const { service, planner } = plannerOnSimulator(simulator, {
      maxWatchesPerAgent: 100,
      pollIntervalSeconds: 1,
    });
    try {
      const located = await service.locateLive(storefront, 'staging');
      // As discovery marks a kind whose verbs lack watch (an aggregated API).
      const target = {
        ...located,
        kinds: located.kinds.map(k =>
          k.kind === 'ConfigMap' ? { ...k, watchable: false as const } : k,
        ),
      };
      const { environment, release } = await planner.follow(target);
      const patches: Array<Extract<LiveMessage, { type: 'patch' }>['patch']> =
        [];
      environment.subscribe(e => {
        if (e.type === 'patch') patches.push(e.patch);
      });
      expect(
        environment.status().kinds.find(k => k.resource === 'ConfigMap'),
      ).toEqual({
        resource: 'ConfigMap',
        mode: 'poll',
        reason:
          "The cluster's API server does not offer watch on ConfigMap: ConfigMap is listed again every 1 s.",
      });
      // Every watched kind (a Flux environment's Events too) and no other.
      const watched = environment
        .status()
        .kinds.filter(k => k.mode === 'watch').length;
      expect(watched).toBeGreaterThan(10);
      await waitFor(() => openWatches(simulator) === watched);
      expect(environment.errors()).toEqual([]);
      simulator.cluster('nonprod').store.upsert({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'listed', namespace: NAMESPACE, uid: 'uid-listed' },
        data: { a: 'b' },
      });
      await waitFor(() =>
        patches.some(p =>
          p.objectsUpserted.some(o => o.metadata?.name === 'listed'),
        ),
      );
      release();
    } finally {
      await planner.close();
    }
  });

  it("follows the Flux object's Events in flux-system: live and read show the same drift and history, and a drift event arriving marks the object drifted", async () => {
    // Watches enough for every kind: the flux-system Events are watched.
    const { backend, url } = await startBackend(simulator, {
      maxWatchesPerAgent: 100,
    });
    const stream = await openLiveStream(url, [STAGING]);
    try {
      const snapshot = (await stream.next(is('snapshot')))
        .message as Of<'snapshot'>;
      let live: PatchableResources = snapshot.resources;
      const view = (held: PatchableResources) =>
        buildGitOpsView(
          held.resources,
          held.graph,
          [NAMESPACE],
          environmentDrift(held.resources, held.graph),
        );
      const read = (await (
        await fetch(
          `${url}/api/gitlab-env/entity/default/component/storefront/environments/staging/resources`,
        )
      ).json()) as EnvironmentResourcesResponse;
      // The read lists flux-system's Events once; live follows them.
      expect(view(live).drift).toEqual(view(read).drift);
      expect(view(live).fluxObjects).toEqual(view(read).fluxObjects);
      expect(Object.keys(view(live).drift)).toEqual([
        'apps/Deployment/storefront-staging/storefront-web',
      ]);
      // The read and the stream's snapshot carry the drift the backend computed.
      expect(read.drift).toEqual(view(read).drift);
      expect(snapshot.resources.drift).toEqual(view(read).drift);
      const status = (await stream.next(is('status'))).message as Of<'status'>;
      expect(
        status.kinds.find(k => k.resource === 'Event in flux-system')?.mode,
      ).toBe('watch');

      // helm-controller warns again, now about the Service.
      const { store } = simulator.cluster('nonprod');
      const [release] = store.list(
        store.registry.forKind('helm.toolkit.fluxcd.io', 'HelmRelease')!,
        'flux-system',
      );
      store.upsert({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: {
          name: 'storefront-staging.drift-service',
          namespace: 'flux-system',
          uid: 'uid-drift-service',
        },
        involvedObject: {
          apiVersion: release.apiVersion,
          kind: 'HelmRelease',
          name: 'storefront-staging',
          namespace: 'flux-system',
          uid: release.metadata.uid,
        },
        type: 'Warning',
        reason: 'DriftDetected',
        message:
          'Cluster state of release storefront-staging/storefront.v12 has drifted from the desired state:\nService/storefront-staging/storefront-web changed (0 additions, 1 changes, 0 removals)',
        lastTimestamp: new Date().toISOString(),
        count: 1,
      });
      const patch = (
        await stream.next(
          is('patch', m =>
            m.patch.objectsUpserted.some(
              o => o.metadata?.uid === 'uid-drift-service',
            ),
          ),
        )
      ).message as Of<'patch'>;
      live = applyResourceGraphPatch(live, patch.patch);
      expect(
        view(live).drift['/Service/storefront-staging/storefront-web']?.signals,
      ).toEqual([
        expect.objectContaining({
          signal: 'fluxEvent',
          detail: 'changed (0 additions, 1 changes, 0 removals)',
        }),
      ]);
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('answers desired vs live from the objects the live tab follows (GET …/desired), and says why a HelmRelease has none', async () => {
    const backend = await startBackendOnSimulator(simulator, {
      entities: [storefront, checkout],
      gitlabEnv: { requestTimeoutMs: 5000, live: { graceSeconds: 5 } },
    });
    const { port } = backend.server.address() as AddressInfo;
    const api = `http://127.0.0.1:${port}/api/gitlab-env/entity/default/component`;
    const desiredOf = async (path: string) =>
      (
        (await (await fetch(`${api}/${path}/desired`)).json()) as {
          desired?: DesiredStateComparison;
        }
      ).desired;
    const states = (desired?: DesiredStateComparison) =>
      desired?.objects.map(o => `${o.id} ${o.state}`);
    const stream = await openLiveStream(`http://127.0.0.1:${port}`, [
      'component:default/checkout-api/production',
    ]);
    try {
      await stream.next(is('snapshot'));
      const live = await desiredOf('checkout-api/environments/production');
      expect(states(live)).toContain(
        '/ConfigMap/checkout/checkout-config differs',
      );

      // Someone puts the repository's value back: the live comparison follows.
      const { store } = simulator.cluster('prod-us');
      const configMaps = store.registry.forKind('', 'ConfigMap')!;
      const config = store
        .list(configMaps, 'checkout')
        .find(o => o.metadata.name === 'checkout-config')!;
      store.upsert({ ...config, data: { ...config.data, CURRENCY: 'USD' } });
      await stream.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(
            o =>
              (o as { data?: Record<string, string> }).data?.CURRENCY === 'USD',
          ),
        ),
      );
      expect(
        states(await desiredOf('checkout-api/environments/production')),
      ).toContain('/ConfigMap/checkout/checkout-config same');

      expect(
        (await desiredOf('storefront/environments/staging'))?.unavailable,
      ).toMatch(/HelmRelease.*Helm values and templates are not compared/);
    } finally {
      await stream.close();
      await backend.stop();
    }
  });

  it('never streams an environment the user may not read', async () => {
    const { backend, url } = await startBackend(simulator, {}, [
      mockServices.permissions.mock({
        authorize: async requests =>
          requests.map(() => ({ result: AuthorizeResult.DENY })),
      }).factory,
    ]);
    const stream = await openLiveStream(url, [STAGING]);
    try {
      const error = await stream.next(is('error'));
      expect((error.message as Of<'error'>).error.code).toBe('NOT_ALLOWED');
      await new Promise(resolve => setTimeout(resolve, 300));
      expect(
        stream.events.some(e => e.event === 'snapshot' || e.event === 'patch'),
      ).toBe(false);
      expect(openWatches(simulator)).toBe(0);
    } finally {
      await stream.close();
      await backend.stop();
    }
  });
  it('never replays an environment the user may not read, whatever resume says', async () => {
    // Alice may read both entities; the outsider only the storefront.
    const OUTSIDER = 'user:default/outsider';
    const { backend, url } = await startBackend(
      simulator,
      { graceSeconds: 5 },
      [
        mockServices.permissions.mock({
          authorize: async (requests, options) =>
            requests.map(request => ({
              result:
                'resourceRef' in request &&
                request.resourceRef === CHECKOUT_ENTITY &&
                userOf(options?.credentials) === OUTSIDER
                  ? AuthorizeResult.DENY
                  : AuthorizeResult.ALLOW,
            })),
        }).factory,
      ],
      [checkout],
    );
    const asAlice = {
      authorization: mockCredentials.user.header('user:default/alice'),
    };
    const asOutsider = {
      authorization: mockCredentials.user.header(OUTSIDER),
    };
    // Alice keeps checkout's staging followed, so its patches are kept.
    const alice = await openLiveStream(url, [CHECKOUT_STAGING], asAlice);
    try {
      await alice.next(is('snapshot'));
      const lastId = await heldUpTo(url, [STAGING], asOutsider);
      labelPod(simulator, 'checkout-staging', 'secret');
      await alice.next(is('patch', labelled('secret')));
      const resumed = await openLiveStream(
        url,
        { resume: [STAGING, CHECKOUT_STAGING] },
        { ...asOutsider, 'last-event-id': lastId },
      );
      try {
        const error = await resumed.next(is('error'));
        expect((error.message as Of<'error'>).key.slug).toBe('staging');
        expect((error.message as Of<'error'>).key.entityRef).toBe(
          CHECKOUT_ENTITY,
        );
        expect((error.message as Of<'error'>).error.code).toBe('NOT_ALLOWED');
        await resumed.next(e => e.id !== undefined);
        expect(
          resumed.events.filter(
            e =>
              e.message.type !== 'heartbeat' &&
              e.message.key.entityRef === CHECKOUT_ENTITY &&
              e.message.type !== 'error',
          ),
        ).toEqual([]);
        expect(JSON.stringify(resumed.events)).not.toContain('secret');
      } finally {
        await resumed.close();
      }
    } finally {
      await alice.close();
      await backend.stop();
    }
  });
});

/** A simulator whose one project has `environments` environments behind one agent. */
async function startAgentSimulator(
  environments: number,
  objectsPerEnvironment: number,
  seed: number,
  faults: Partial<FaultKnobs> = {},
) {
  const scenario = generateScenario({
    projects: 1,
    environmentsPerProject: environments,
    objectsPerEnvironment,
    seed,
  });
  const simulator = await startTestSimulator({ scenario, faults });
  return { scenario, simulator };
}

describe('GET /live for many environments of one agent', () => {
  it('watches a polled kind once another environment of the agent frees a watch slot', async () => {
    const { scenario, simulator } = await startAgentSimulator(2, 10, 5);
    const [entity] = scenarioCatalogEntities(scenario);
    // Namespace by namespace, so the first environment's watches fill the cap.
    const backend = await startBackendOnSimulator(simulator, {
      entities: [entity],
      gitlabEnv: {
        overview: { clusterWideReads: false },
        live: { graceSeconds: 0.3, maxWatchesPerAgent: 2 },
      },
    });
    const { port } = backend.server.address() as AddressInfo;
    const [first, second] = scenario.projects[0].environments.map(
      e =>
        `component:default/${entity.metadata.name}/${environmentSlug(e.name)}`,
    );
    const url = `http://127.0.0.1:${port}`;
    const holder = await openLiveStream(url, [first]);
    const waiter = await openLiveStream(url, [second]);
    try {
      const held = (await holder.next(is('status'))).message as Of<'status'>;
      expect(held.kinds.filter(k => k.mode === 'watch')).toHaveLength(2);
      const before = (await waiter.next(is('status'))).message as Of<'status'>;
      expect(before.kinds.every(k => k.mode === 'poll')).toBe(true);
      expect(before.kinds[0].reason).toMatch(/maxWatchesPerAgent/);

      await holder.close();
      const after = (
        await waiter.next(
          is('status', m => m.kinds.some(k => k.mode === 'watch')),
        )
      ).message as Of<'status'>;
      expect(
        after.kinds.filter(k => k.mode === 'watch').map(k => k.resource),
      ).toEqual(['Pod', 'apps/Deployment']);
      await waitFor(() => simulator.cluster(BENCH_AGENT).openWatches() === 2);

      // The promoted watch delivers: a pod's change arrives as a patch.
      const namespace =
        scenario.projects[0].environments[1].kubernetesNamespace!;
      const stopChurn = simulator
        .cluster(BENCH_AGENT)
        .startChurn(20, { namespaces: [namespace] });
      try {
        await waiter.next(
          is('patch', m =>
            m.patch.objectsUpserted.some(
              o => o.metadata?.annotations?.[CHANGED_AT],
            ),
          ),
        );
      } finally {
        stopChurn();
      }
    } finally {
      await waiter.close();
      await holder.close();
      await backend.stop();
      await simulator.close();
    }
  });

  it.each([
    ['watches each kind once across the cluster', false],
    [
      'falls back to one watch per namespace where RBAC refuses the cluster',
      true,
    ],
  ])(
    '%s and delivers every namespace’s changes',
    async (_name, namespacedRbacOnly) => {
      const { scenario, simulator } = await startAgentSimulator(4, 20, 3, {
        namespacedRbacOnly,
      });
      const [entity] = scenarioCatalogEntities(scenario);
      const backend = await startBackendOnSimulator(simulator, {
        entities: [entity],
        // Namespace by namespace, four environments need four times the
        // watches: room for them, so no kind is polled here.
        gitlabEnv: {
          live: {
            graceSeconds: 0.3,
            ...(namespacedRbacOnly ? { maxWatchesPerAgent: 200 } : {}),
          },
        },
      });
      const { port } = backend.server.address() as AddressInfo;
      const environments = scenario.projects[0].environments;
      const stream = await openLiveStream(
        `http://127.0.0.1:${port}`,
        environments.map(
          e =>
            `component:default/${entity.metadata.name}/${environmentSlug(
              e.name,
            )}`,
        ),
      );
      for (const e of environments) {
        const slug = environmentSlug(e.name);
        const snapshot = (
          await stream.next(is('snapshot', m => m.key.slug === slug))
        ).message as Of<'snapshot'>;
        expect(snapshot.resources.resources.length).toBeGreaterThan(0);
      }
      const stopChurn = simulator.cluster(BENCH_AGENT).startChurn(40, {
        namespaces: environments.map(e => e.kubernetesNamespace!),
      });
      try {
        for (const e of environments) {
          const slug = environmentSlug(e.name);
          await stream.next(
            is(
              'patch',
              m =>
                m.key.slug === slug &&
                m.patch.objectsUpserted.some(
                  o => o.metadata?.annotations?.[CHANGED_AT],
                ),
            ),
          );
        }
        const status = (await stream.next(is('status')))
          .message as Of<'status'>;
        const watched = status.kinds.filter(k => k.mode === 'watch').length;
        const open = simulator.cluster(BENCH_AGENT).openWatches();
        // One watch per kind for all four namespaces, not one per namespace;
        // namespace by namespace where the cluster cannot be listed.
        expect(namespacedRbacOnly ? open > watched : open <= watched).toBe(
          true,
        );
      } finally {
        stopChurn();
        await stream.close();
        await backend.stop();
        await simulator.close();
      }
    },
  );
});
