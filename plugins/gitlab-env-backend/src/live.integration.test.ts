import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  applyResourceGraphPatch,
  buildGitOpsView,
  DesiredStateComparison,
  EnvironmentResourcesResponse,
  LiveMessage,
  PatchableResources,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  BENCH_AGENT,
  CHANGED_AT,
  DEMO_TOKEN,
  environmentSlug,
  FaultKnobs,
  generateScenario,
  RunningSimulator,
  scenarioCatalogEntities,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import {
  component,
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from './__testUtils__/backendOnSimulator';
import { openLiveStream, ReceivedEvent } from './__testUtils__/liveStream';
import { ConfigReader } from '@backstage/config';
import { readGitlabEnvConfig } from './config';
import { LivePlanner } from './planning';
import { GitlabEnvironmentsService } from './service';

const storefront = component('storefront', {
  'gitlab.com/project-slug': 'acme/shop/storefront',
});
const STAGING = 'component:default/storefront/staging';
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
) {
  const backend = await startBackendOnSimulator(simulator, {
    entities: [storefront],
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

async function waitFor(condition: () => boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

/** Watch requests the simulator serves right now for the agent. */
function openWatches(simulator: RunningSimulator) {
  return simulator.cluster('nonprod').openWatches();
}

jest.setTimeout(20_000);

describe('GET /live against the simulator', () => {
  let simulator: RunningSimulator;

  beforeEach(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      kasTunnels: TEST_KAS_TUNNELS,
      tickMs: 0,
    });
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
      const { store, list } = podsOf(simulator);
      const [pod] = list();
      store.upsert({
        ...pod,
        metadata: {
          ...pod.metadata,
          labels: { ...pod.metadata.labels, while: 'away' },
        },
      });
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

  it('resumes a reconnecting stream from Last-Event-ID with the missed patches, without a snapshot', async () => {
    // Within the grace period the environment's state and patches are kept.
    const { backend, url } = await startBackend(simulator, { graceSeconds: 5 });
    const first = await openLiveStream(url, [STAGING]);
    let lastId: string;
    try {
      await first.next(is('snapshot'));
      // Ids start once every environment had its snapshot.
      lastId = (await first.next(e => e.id !== undefined)).id!;
    } finally {
      await first.close();
    }
    const { store, list } = podsOf(simulator);
    const [pod] = list();
    store.upsert({
      ...pod,
      metadata: {
        ...pod.metadata,
        labels: { ...pod.metadata.labels, missed: 'yes' },
      },
    });
    await new Promise(resolve => setTimeout(resolve, 500));
    const resumed = await openLiveStream(url, [STAGING], {
      'last-event-id': lastId,
    });
    try {
      await resumed.next(
        is('patch', m =>
          m.patch.objectsUpserted.some(
            o => o.metadata?.labels?.missed === 'yes',
          ),
        ),
      );
      expect(resumed.events.some(e => e.event === 'snapshot')).toBe(false);
      // An id from another process (or too old) gets a fresh snapshot.
      const fresh = await openLiveStream(url, [STAGING], {
        'last-event-id': '1',
      });
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

  it('lists a polled kind again at once when a write asks for it (LivePlanner.refresh)', async () => {
    const config = readGitlabEnvConfig(
      new ConfigReader({
        gitlabEnv: {
          instances: [
            {
              host: 'gitlab.example.com',
              baseUrl: simulator.url,
              token: DEMO_TOKEN,
            },
          ],
          live: { maxWatchesPerAgent: 1, pollIntervalSeconds: 600 },
        },
      }),
    );
    const service = new GitlabEnvironmentsService(
      config,
      mockServices.logger.mock(),
    );
    const planner = new LivePlanner(
      config.live,
      { maxObjects: 1000, maxPagesPerList: 10 },
      { enabled: true, minNamespaces: 3 },
      mockServices.logger.mock(),
    );
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
        buildGitOpsView(held.resources, held.graph, [NAMESPACE]);
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

  it('answers desired vs live from the objects the live tab follows (GET …/desired), as a read compares them, and says why a HelmRelease has none', async () => {
    const checkout = component('checkout-api', {
      'gitlab.com/project-slug': 'acme/shop/checkout-api',
    });
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
      const read = (
        (await (
          await fetch(`${api}/checkout-api/environments/production/resources`)
        ).json()) as EnvironmentResourcesResponse
      ).desired;
      expect(live).toEqual(read);
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
  const simulator = await startGitlabSimulator({
    port: 0,
    scenario,
    tickMs: 0,
    kasTunnels: TEST_KAS_TUNNELS,
    faults,
  });
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
