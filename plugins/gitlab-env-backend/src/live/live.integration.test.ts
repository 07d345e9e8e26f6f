import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { LiveMessage } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import {
  component,
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';
import { openLiveStream, ReceivedEvent } from '../__testUtils__/liveStream';

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
