import { EntityEnvironmentsResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  generateScenario,
  RunningSimulator,
  scenarioCatalogEntities,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  startBackendOnSimulator,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { KasClient } from './transport/kasClient';

/**
 * What a cold entity page asks the cluster, and in which order: the list of
 * environments, then each card's resources on its own, as the page reads
 * them. Structure, not timings: which requests go, and which ones were in
 * flight together.
 */

/** One project, three environments, one agent (bench-agent). */
const scenario = generateScenario({
  projects: 1,
  environmentsPerProject: 3,
  objectsPerEnvironment: 5,
  seed: 5,
});
const [entity] = scenarioCatalogEntities(scenario);

interface KasCall {
  path: string;
  /** Settled calls when it was made. */
  after: number;
  settled?: true;
}

/** Every KAS GET the backend makes from now on, in order. */
function recordKasCalls() {
  const calls: KasCall[] = [];
  const realGet = KasClient.prototype.get;
  const spy = jest
    .spyOn(KasClient.prototype, 'get')
    .mockImplementation(function get(this: KasClient, path, ...rest) {
      const call: KasCall = {
        path: path.split('?')[0],
        after: calls.filter(c => c.settled).length,
      };
      calls.push(call);
      return realGet.call(this, path, ...rest).finally(() => {
        call.settled = true;
      });
    });
  return { calls, restore: () => spy.mockRestore() };
}

const isDiscovery = (path: string) => path === '/api/v1' || path === '/apis';

describe('a cold entity page', () => {
  let simulator: RunningSimulator;
  let backend: Awaited<ReturnType<typeof startBackendOnSimulator>>;
  let kas: ReturnType<typeof recordKasCalls>;
  beforeAll(async () => {
    simulator = await startTestSimulator({ scenario });
    backend = await startBackendOnSimulator(simulator, {
      entities: [entity],
    });
  });
  afterAll(async () => {
    await backend.stop();
    await simulator.close();
  });
  beforeEach(() => {
    kas = recordKasCalls();
  });
  afterEach(() => kas.restore());

  async function loadPage() {
    const base = `/api/gitlab-env/entity/default/component/${entity.metadata.name}`;
    const list = await request(backend.server).get(`${base}/environments`);
    expect(list.status).toBe(200);
    const { environments } = list.body as EntityEnvironmentsResponse;
    expect(environments).toHaveLength(3);
    const cards = await Promise.all(
      environments.map(e =>
        request(backend.server).get(`${base}/environments/${e.slug}/resources`),
      ),
    );
    expect(cards.map(c => c.status)).toEqual([200, 200, 200]);
    return cards.map(c => c.body);
  }

  it("lists each kind once across the agent's cluster for the three cards read one by one, and a warm page asks nothing", async () => {
    const cards = await loadPage();
    const lists = kas.calls.filter(c => !isDiscovery(c.path));
    expect(lists.length).toBeGreaterThan(20);
    // The cards were announced by the list: no list of one namespace.
    expect(lists.filter(c => c.path.includes('/namespaces/'))).toEqual([]);
    expect(new Set(lists.map(c => c.path)).size).toBe(lists.length);
    // Each card has its own namespace's objects.
    for (const card of cards)
      expect(
        card.resources.every(
          (r: { metadata: { namespace: string } }) =>
            r.metadata.namespace === card.environment.namespace,
        ),
      ).toBe(true);
    kas.calls.length = 0;
    await loadPage();
    expect(kas.calls).toEqual([]);
  });
});
