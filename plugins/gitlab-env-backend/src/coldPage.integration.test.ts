import { cacheServiceFactory } from '@backstage/backend-defaults/cache';
import {
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
  OverviewHealthLine,
  OverviewStreamLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  generateScenario,
  RunningSimulator,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';
import { Server } from 'http';
import request from 'supertest';
import {
  startBackendOnSimulator,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { waitFor } from './__testUtils__/waitFor';
import { RunningRedis, startRedis } from './__testUtils__/redisServer';
import { KasClient } from './transport/kasClient';

/**
 * What a cold entity page asks the cluster, and in which order: the list of
 * environments, then each card's resources on its own, as the page reads
 * them. Structure, not timings: which requests go, and which ones were in
 * flight together.
 */

/**
 * One project, three environments, one agent (bench-agent), and a custom
 * kind with an object in each namespace.
 */
const scenario = generateScenario({
  projects: 1,
  environmentsPerProject: 3,
  objectsPerEnvironment: 5,
  seed: 5,
});
const [entity] = scenarioCatalogEntities(scenario);
scenario.clusters[0].objects.push(
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
  },
  ...scenario.projects[0].environments.map(e => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: {
      name: 'widget',
      namespace: e.kubernetesNamespace!,
      uid: `widget-${e.kubernetesNamespace}`,
      creationTimestamp: new Date().toISOString(),
    },
  })),
);

interface KasCall {
  path: string;
  /** Discovery's calls that had answered when it was made. */
  afterDiscovery: number;
  settled?: true;
}

const isDiscovery = (path: string) => path === '/api/v1' || path === '/apis';
const made = (calls: KasCall[], path: string) =>
  calls.find(c => c.path === path);

/**
 * Every KAS GET the backend makes from now on, in order; discovery can be
 * held (`holdDiscovery`) until the test lets it answer, so what a read
 * sends while discovery is under way does not depend on timing.
 */
function recordKasCalls() {
  const calls: KasCall[] = [];
  let held: Promise<void> | undefined;
  const realGet = KasClient.prototype.get;
  const spy = jest
    .spyOn(KasClient.prototype, 'get')
    .mockImplementation(async function get(this: KasClient, path, ...rest) {
      const call: KasCall = {
        path: path.split('?')[0],
        afterDiscovery: calls.filter(c => c.settled && isDiscovery(c.path))
          .length,
      };
      calls.push(call);
      if (held && isDiscovery(call.path)) await held;
      return realGet.call(this, path, ...rest).finally(() => {
        call.settled = true;
      });
    });
  return {
    calls,
    restore: () => spy.mockRestore(),
    /** Discovery waits from now on until the returned function is called. */
    holdDiscovery(): () => void {
      let release!: () => void;
      held = new Promise(resolve => {
        release = resolve;
      });
      return () => {
        held = undefined;
        release();
      };
    },
  };
}

describe('a cold entity page', () => {
  let simulator: RunningSimulator;
  const backends: Array<Awaited<ReturnType<typeof startBackendOnSimulator>>> =
    [];
  let kas: ReturnType<typeof recordKasCalls>;
  let redis: RunningRedis | undefined;
  beforeAll(async () => {
    simulator = await startTestSimulator({ scenario });
  });
  afterAll(async () => {
    await Promise.all(backends.map(b => b.stop()));
    await simulator.close();
    await redis?.close();
  });
  beforeEach(() => {
    kas = recordKasCalls();
  });
  afterEach(() => {
    kas.restore();
    simulator.setFaults({ forbiddenKinds: [] });
  });

  /** A backend of its own: empty caches; with a Redis URL, its CacheService (the replicas' shared store) is that Redis. */
  async function startBackend(redisUrl?: string) {
    const backend = await startBackendOnSimulator(simulator, {
      entities: [entity],
      ...(redisUrl && {
        features: [cacheServiceFactory],
        config: {
          backend: { cache: { store: 'redis', connection: redisUrl } },
        },
      }),
    });
    backends.push(backend);
    return backend.server;
  }

  const base = `/api/gitlab-env/entity/default/component/${entity.metadata.name}`;

  async function listEnvironments(server: Server) {
    const list = await request(server).get(`${base}/environments`);
    expect(list.status).toBe(200);
    const { environments } = list.body as EntityEnvironmentsResponse;
    expect(environments).toHaveLength(3);
    return environments;
  }

  /** The page: its list, then each card's resources on its own, all at once. */
  async function loadPage(server: Server, listed?: Array<{ slug: string }>) {
    const environments = listed ?? (await listEnvironments(server));
    const cards = await Promise.all(
      environments.map(e =>
        request(server).get(`${base}/environments/${e.slug}/resources`),
      ),
    );
    expect(cards.map(c => c.status)).toEqual([200, 200, 200]);
    return cards.map(c => c.body as EnvironmentResourcesResponse);
  }

  it("lists each kind once across the agent's cluster for the three cards read one by one, and a warm page asks nothing", async () => {
    const server = await startBackend();
    const cards = await loadPage(server);
    const lists = kas.calls.filter(c => !isDiscovery(c.path));
    expect(lists.length).toBeGreaterThan(20);
    // The cards were announced by the list: no list of one namespace.
    expect(lists.filter(c => c.path.includes('/namespaces/'))).toEqual([]);
    expect(new Set(lists.map(c => c.path)).size).toBe(lists.length);
    // Each card has its own namespace's objects, the custom kind's among them.
    for (const card of cards) {
      expect(
        card.resources.every(
          r => r.metadata?.namespace === card.environment.namespace,
        ),
      ).toBe(true);
      expect(card.resources.map(r => r.kind)).toContain('Widget');
    }
    kas.calls.length = 0;
    await loadPage(server);
    expect(kas.calls).toEqual([]);
  });

  /** The page while discovery is under way: the cards are read before it answers. */
  async function loadPageDuringDiscovery(server: Server) {
    const release = kas.holdDiscovery();
    const listed = await listEnvironments(server);
    const cards = loadPage(server, listed);
    // The cards' reads send what they can before discovery answers.
    await waitFor(() => !!made(kas.calls, '/api/v1/pods'), 5000).finally(
      release,
    );
    return cards;
  }

  it("sends the built-in kinds' lists with discovery, and the custom kind's once discovery has named it", async () => {
    await loadPageDuringDiscovery(await startBackend());
    for (const path of ['/api/v1', '/apis', '/api/v1/pods'])
      expect(made(kas.calls, path)?.afterDiscovery).toBe(0);
    expect(made(kas.calls, '/apis/apps/v1/deployments')?.afterDiscovery).toBe(
      0,
    );
    expect(
      made(kas.calls, '/apis/example.com/v1/widgets')?.afterDiscovery,
    ).toBe(2);
  });

  it("sends the built-in kinds' lists with discovery when the replicas share a store, which discovery is asked of first", async () => {
    const slugs = await listEnvironments(await startBackend());
    redis ??= await startRedis();
    const server = await startBackend(redis.url);
    kas.calls.length = 0;
    // The cards alone, as a link to them opens them: their reads are the
    // ones that ask discovery (no list did), after the store missed.
    const release = kas.holdDiscovery();
    const cards = loadPage(server, slugs);
    const listOf = (plural: string) =>
      kas.calls.find(c => c.path.endsWith(`/${plural}`));
    await waitFor(() => !!listOf('pods'), 5000).finally(release);
    await cards;
    expect(listOf('pods')?.afterDiscovery).toBe(0);
    expect(listOf('deployments')?.afterDiscovery).toBe(0);
    expect(listOf('widgets')?.afterDiscovery).toBe(2);
  }, 120_000);

  it('answers as when discovery was known first: a built-in kind the cluster does not serve is absent, one RBAC refuses says so', async () => {
    // The simulator's API server serves no PodTemplates (a 404 list).
    simulator.setFaults({ forbiddenKinds: ['secrets'] });
    const early = await loadPageDuringDiscovery(await startBackend());
    expect(made(kas.calls, '/api/v1/podtemplates')?.afterDiscovery).toBe(0);

    kas.calls.length = 0;
    const server = await startBackend();
    const listed = await listEnvironments(server);
    // The list started discovery: the cards read once it has answered.
    await waitFor(
      () =>
        kas.calls.filter(c => isDiscovery(c.path) && c.settled).length === 2,
      5000,
    );
    const known = await loadPage(server, listed);
    expect(
      kas.calls.every(c => isDiscovery(c.path) || c.afterDiscovery === 2),
    ).toBe(true);
    expect(made(kas.calls, '/api/v1/podtemplates')).toBeUndefined();

    const seen = (cards: EnvironmentResourcesResponse[]) =>
      cards.map(card => ({
        uids: card.resources.map(r => r.metadata?.uid).sort(),
        errors: card.errors,
        health: card.health,
      }));
    expect(seen(early)).toEqual(seen(known));
    expect(early[0].errors.map(e => e.code)).toContain('KIND_FORBIDDEN');
    expect(JSON.stringify(early)).not.toContain('PodTemplate');
  });

  /** The overview's health lines, by environment. */
  async function overviewHealth(server: Server) {
    const response = await request(server).get('/api/gitlab-env/overview');
    expect(response.status).toBe(200);
    return (response.text.trim().split('\n') as string[])
      .map(line => JSON.parse(line) as OverviewStreamLine)
      .filter((line): line is OverviewHealthLine => line.type === 'health')
      .map(({ environmentId, health, errors }) => ({
        environmentId,
        health,
        errors,
      }))
      .sort((a, b) => a.environmentId.localeCompare(b.environmentId));
  }

  it("the overview sends the built-in kinds' lists across the cluster with discovery, each once, and answers as when discovery was known first", async () => {
    const release = kas.holdDiscovery();
    const overview = overviewHealth(await startBackend());
    await waitFor(() => !!made(kas.calls, '/api/v1/pods'), 5000).finally(
      release,
    );
    const early = await overview;
    for (const path of ['/api/v1/pods', '/apis/apps/v1/deployments'])
      expect(made(kas.calls, path)?.afterDiscovery).toBe(0);
    expect(
      made(kas.calls, '/apis/example.com/v1/widgets')?.afterDiscovery,
    ).toBe(2);
    const lists = kas.calls.filter(c => !isDiscovery(c.path));
    expect(lists.filter(c => c.path.includes('/namespaces/'))).toEqual([]);
    expect(new Set(lists.map(c => c.path)).size).toBe(lists.length);

    kas.calls.length = 0;
    const server = await startBackend();
    // The list starts discovery: the overview reads once it has answered.
    await listEnvironments(server);
    await waitFor(
      () =>
        kas.calls.filter(c => isDiscovery(c.path) && c.settled).length === 2,
      5000,
    );
    const known = await overviewHealth(server);
    expect(
      kas.calls.every(c => isDiscovery(c.path) || c.afterDiscovery === 2),
    ).toBe(true);
    expect(early).toHaveLength(3);
    expect(early.every(line => line.health && line.errors.length === 0)).toBe(
      true,
    );
    expect(early).toEqual(known);
  });
});
