import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  applyResourceGraphPatch,
  EnvironmentObjectResponse,
  EnvironmentResourcesResponse,
  environmentTree,
  EnvironmentTree,
  LiveMessage,
  LiveTreeMessage,
  ResourceEdge,
  TreeReader,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import {
  startBackendOnSimulator,
  storefrontComponent,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { openLiveStream, ReceivedEvent } from './__testUtils__/liveStream';
import { REDACTED_SECRET_VALUE } from './reading/objects';

const STAGING = 'component:default/storefront/staging';
const NAMESPACE = 'storefront-staging';
const OBJECT_ROUTE =
  '/api/gitlab-env/entity/default/component/storefront/environments/staging/object';

type Tree<T extends LiveTreeMessage['type']> = Extract<
  LiveTreeMessage,
  { type: T }
>;
type Objects<T extends LiveMessage['type']> = Extract<LiveMessage, { type: T }>;

async function startBackend(
  simulator: RunningSimulator,
  features: Parameters<typeof startBackendOnSimulator>[1]['features'] = [],
) {
  const backend = await startBackendOnSimulator(simulator, {
    entities: [storefrontComponent()],
    gitlabEnv: {
      requestTimeoutMs: 5000,
      live: { graceSeconds: 30, heartbeatSeconds: 1 },
    },
    features,
  });
  const { port } = backend.server.address() as AddressInfo;
  return { backend, url: `http://127.0.0.1:${port}` };
}

function podsOf(simulator: RunningSimulator) {
  const { store } = simulator.cluster('nonprod');
  const pods = store.registry.forKind('', 'Pod')!;
  return { store, list: () => store.list(pods, NAMESPACE) };
}

const edgeName = (edge: ResourceEdge) =>
  `${edge.source} -${edge.type}-> ${edge.target}`;
function comparable(tree: EnvironmentTree) {
  return {
    ...tree,
    graph: { ...tree.graph, edges: tree.graph.edges.map(edgeName).sort() },
  };
}

async function readObject(url: string, id: string) {
  const response = await fetch(
    `${url}${OBJECT_ROUTE}?id=${encodeURIComponent(id)}`,
  );
  return { status: response.status, body: await response.json() };
}

/** Until the informers' watches are open: from then on, nothing is listed again. */
async function settled(simulator: RunningSimulator) {
  let last = -1;
  for (;;) {
    await new Promise(resolve => setTimeout(resolve, 300));
    const now = simulator.stats().requests;
    if (now === last) return;
    last = now;
  }
}

jest.setTimeout(30_000);

describe('the compact tree and the object route against the simulator', () => {
  let simulator: RunningSimulator;

  beforeEach(async () => {
    simulator = await startTestSimulator();
  });
  afterEach(async () => {
    await simulator.close();
  });

  it('sends the tree the graph draws, and patches only what it draws', async () => {
    const { backend, url } = await startBackend(simulator);
    const objects = await openLiveStream(url, [STAGING]);
    const tree = await openLiveStream<LiveTreeMessage>(
      url,
      [STAGING],
      {},
      'tree',
    );
    try {
      const full = (await objects.next(
        e => e.event === 'snapshot',
      )) as ReceivedEvent<Objects<'snapshot'>>;
      const compact = (await tree.next(
        e => e.event === 'snapshot',
      )) as ReceivedEvent<Tree<'snapshot'>>;
      const reader = new TreeReader();
      let held = reader.read(compact.message.tree);
      let state: EnvironmentResourcesResponse = full.message.resources;
      expect(comparable(held)).toEqual(comparable(environmentTree(state)));
      expect(compact.bytes * 3).toBeLessThan(full.bytes);

      const { store, list } = podsOf(simulator);
      const [pod] = list();
      // A change the graph does not draw: the objects stream says it, the tree does not.
      store.upsert({
        ...pod,
        metadata: {
          ...pod.metadata,
          annotations: { ...pod.metadata.annotations, touched: 'yes' },
        },
      });
      const noise = (await objects.next(
        e => e.event === 'patch',
      )) as ReceivedEvent<Objects<'patch'>>;
      state = applyResourceGraphPatch(state, noise.message.patch);
      // A drawn change after it: the tree's first patch is that one.
      const restarted = structuredClone(
        store
          .list(store.registry.forKind('', 'Pod')!, NAMESPACE)
          .find(p => p.metadata.name === pod.metadata.name)!,
      );
      restarted.status.containerStatuses[0].restartCount = 4;
      store.upsert(restarted);
      const drawn = (await objects.next(e => e.event === 'patch', {
        from: objects.events.indexOf(noise) + 1,
      })) as ReceivedEvent<Objects<'patch'>>;
      state = applyResourceGraphPatch(state, drawn.message.patch);
      const patch = (await tree.next(
        e => e.event === 'patch',
      )) as ReceivedEvent<Tree<'patch'>>;
      expect(patch.message.patch.changed).toEqual([
        expect.objectContaining({ w: ['Running', '1/1 ready', '4 restarts'] }),
      ]);
      expect(patch.bytes).toBeLessThan(drawn.bytes / 10);
      held = reader.apply(patch.message.patch);
      expect(comparable(held)).toEqual(
        comparable({ ...environmentTree(state), fetchedAt: held.fetchedAt }),
      );
      expect(tree.events.filter(e => e.event === 'patch')).toHaveLength(1);
    } finally {
      await objects.close();
      await tree.close();
      await backend.stop();
    }
  });

  it("serves a drawer's object from the live store: no upstream request for a followed environment, Secrets redacted", async () => {
    const { store } = simulator.cluster('nonprod');
    store.upsert({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'storefront-db', namespace: NAMESPACE, uid: 'uid-db' },
      type: 'Opaque',
      data: { password: 'aHVudGVyMg==' },
    });
    const { backend, url } = await startBackend(simulator);
    const tree = await openLiveStream<LiveTreeMessage>(
      url,
      [STAGING],
      {},
      'tree',
    );
    try {
      const snapshot = (await tree.next(
        e => e.event === 'snapshot',
      )) as ReceivedEvent<Tree<'snapshot'>>;
      const held = new TreeReader().read(snapshot.message.tree);
      const pod = held.graph.nodes.find(n => n.kind === 'Pod')!;
      const secret = held.graph.nodes.find(n => n.kind === 'Secret')!;
      await settled(simulator);
      const before = simulator.stats().requests;

      const opened = await readObject(url, pod.id);
      expect(opened.status).toBe(200);
      const body = opened.body as EnvironmentObjectResponse;
      expect(body.object?.metadata?.name).toBe(pod.name);
      expect(body.object?.spec?.containers?.[0]?.name).toBe('web');
      expect(Array.isArray(body.events)).toBe(true);
      const secretBody = (await readObject(url, secret.id))
        .body as EnvironmentObjectResponse;
      expect(secretBody.object?.data).toEqual({
        password: REDACTED_SECRET_VALUE,
      });
      expect(simulator.stats().requests).toBe(before);
    } finally {
      await tree.close();
      await backend.stop();
    }
  });

  it('reads an environment nobody follows once for its drawer: the next drawer reads nothing', async () => {
    const { backend, url } = await startBackend(simulator);
    try {
      const before = simulator.stats().requests;
      const deployment = 'apps/Deployment/storefront-staging/storefront-web';
      const first = await readObject(url, deployment);
      expect(first.status).toBe(200);
      expect(first.body.object.kind).toBe('Deployment');
      expect(simulator.stats().requests).toBeGreaterThan(before);
      await settled(simulator);
      const after = simulator.stats().requests;
      const second = await readObject(url, deployment);
      expect(second.status).toBe(200);
      expect(simulator.stats().requests).toBe(after);
    } finally {
      await backend.stop();
    }
  });

  it('answers 404 for an object the environment does not hold and refuses users who may not read it', async () => {
    const { backend, url } = await startBackend(simulator);
    try {
      const other = await readObject(
        url,
        'apps/Deployment/storefront-production/storefront-web',
      );
      expect(other.status).toBe(404);
      expect(other.body.gitlabEnv.code).toBe('OBJECT_NOT_FOUND');
      const malformed = await fetch(`${url}${OBJECT_ROUTE}`);
      expect(malformed.status).toBe(400);
    } finally {
      await backend.stop();
    }
    const denied = await startBackend(simulator, [
      mockServices.permissions.mock({
        authorize: async requests =>
          requests.map(() => ({ result: AuthorizeResult.DENY })),
      }).factory,
    ]);
    try {
      const refused = await readObject(
        denied.url,
        'apps/Deployment/storefront-staging/storefront-web',
      );
      expect(refused.status).toBe(403);
      expect(refused.body.gitlabEnv.code).toBe('NOT_ALLOWED');
    } finally {
      await denied.backend.stop();
    }
  });
});
