import { cacheServiceFactory } from '@backstage/backend-defaults/cache';
import { mockServices } from '@backstage/backend-test-utils';
import {
  RunningSimulator,
  loadDefaultScenario,
  scenarioCatalogEntities,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import { startBackendOnSimulator } from './__testUtils__/backendOnSimulator';
import { RunningRedis, startRedis } from './__testUtils__/redisServer';

const scenario = loadDefaultScenario();
const entities = scenarioCatalogEntities(scenario);
const ENTITY = '/entity/default/component/checkout-api';

/** A backend replica; with a Redis URL, its CacheService is that Redis. */
async function replica(simulator: RunningSimulator, redisUrl?: string) {
  const backend = await startBackendOnSimulator(simulator, {
    entities,
    features: [
      mockServices.permissions.factory(),
      // Backstage's own CacheService, configured by backend.cache as in a portal.
      cacheServiceFactory,
    ],
    config: redisUrl
      ? { backend: { cache: { store: 'redis', connection: redisUrl } } }
      : {},
  });
  const get = (path: string) =>
    request(backend.server).get(`/api/gitlab-env${path}`);
  return { get, stop: () => backend.stop() };
}

/** The entity tab's page: the environment cards, then one environment's resources. */
async function openEntityPage(get: (path: string) => request.Test) {
  const environments = await get(`${ENTITY}/environments`);
  const resources = await get(`${ENTITY}/environments/staging/resources`);
  expect(environments.status).toBe(200);
  expect(resources.status).toBe(200);
  return { environments: environments.body, resources: resources.body };
}

/** Waits until the store's key count stops growing: writes are not awaited. */
async function settled(redis: RunningRedis) {
  let last = -1;
  for (let i = 0; i < 50; i++) {
    const size = redis.dbSize();
    if (size > 0 && size === last) return size;
    last = size;
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  throw new Error(`the shared cache never settled (${last} keys)`);
}

describe('two backend replicas sharing one Redis through CacheService', () => {
  let simulator: RunningSimulator;
  let redis: RunningRedis;
  const stopBeforeRedis: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    simulator = await startGitlabSimulator({ port: 0, scenario });
    redis = await startRedis();
  }, 300_000);
  afterAll(async () => {
    for (const stop of stopBeforeRedis) await stop();
    await simulator?.close();
    await redis?.close();
  });

  it('the second replica serves a page the first warmed with 0 upstream requests', async () => {
    const first = await replica(simulator, redis.url);
    const second = await replica(simulator, redis.url);
    const alone = await replica(simulator); // memory store: shares nothing
    // Stopped before Redis is, so no client sees its socket close.
    stopBeforeRedis.push(first.stop, second.stop, alone.stop);

    simulator.resetStats();
    const warmed = await openEntityPage(first.get);
    const firstRequests = simulator.stats().requests;
    expect(firstRequests).toBeGreaterThan(0);
    const keys = await settled(redis);

    simulator.resetStats();
    const served = await openEntityPage(second.get);
    const secondRequests = simulator.stats().requests;

    simulator.resetStats();
    await openEntityPage(alone.get);
    const aloneRequests = simulator.stats().requests;

    console.log(
      `upstream requests for checkout-api's page: first replica ${firstRequests}, ` +
        `second replica ${secondRequests} (${keys} keys in Redis), ` +
        `a replica without the shared store ${aloneRequests}`,
    );
    expect(secondRequests).toBe(0);
    expect(aloneRequests).toBe(firstRequests);
    expect(served).toEqual(warmed);
  }, 120_000);
});
