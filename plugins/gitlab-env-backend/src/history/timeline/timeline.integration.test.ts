import { AddressInfo } from 'net';
import { mockServices, TestDatabases } from '@backstage/backend-test-utils';
import {
  EntityEnvironmentsResponse,
  TimelineEntry,
  TimelineResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
  startTestSimulator,
} from '../../__testUtils__/backendOnSimulator';
import { openLiveStream } from '../../__testUtils__/liveStream';
import { startPostgresSync } from '../../__testUtils__/postgresServer';
import { waitForAsync } from '../../__testUtils__/waitFor';

const postgres = startPostgresSync();
const databases = TestDatabases.create({
  ids: ['SQLITE_3', postgres.id as any],
});

const ENTITY = '/api/gitlab-env/entity/default/component/storefront';
const entities = [
  component('storefront', {
    'gitlab.com/project-slug': 'acme/shop/storefront',
  }),
];

describe.each(databases.eachSupportedId())('the timeline on %s', id => {
  let simulator: RunningSimulator;
  beforeEach(async () => {
    simulator = await startTestSimulator();
  });
  afterEach(() => simulator.close());

  async function backendOn(knex: any) {
    return startBackendOnSimulator(simulator, {
      entities,
      gitlabEnv: {
        cacheTtlSeconds: 0.05,
        transientCacheSeconds: 0.05,
        live: { batchMs: 20 },
      },
      features: [mockServices.database.factory({ knex })],
    });
  }

  async function timeline(server: any, query = ''): Promise<TimelineEntry[]> {
    const res = await request(server)
      .get(`${ENTITY}/timeline?limit=200${query}`)
      .expect(200);
    return (res.body as TimelineResponse).entries;
  }

  async function productionSlug(server: any) {
    const list = (
      await request(server)
        .get(`${ENTITY}/environments?withHealth=false`)
        .expect(200)
    ).body as EntityEnvironmentsResponse;
    return list.environments.find(e => e.name === 'production/us-region')!.slug;
  }

  function crashOnePod(namespace: string) {
    const cluster = simulator.cluster('prod-us');
    const pod = cluster.store
      .all()
      .find(
        (o: any) =>
          o.kind === 'Pod' &&
          o.metadata.namespace === namespace &&
          o.metadata.name.startsWith('storefront-web'),
      );
    cluster.crashPod(namespace, pod!.metadata.name);
    return pod!.metadata.name as string;
  }

  it('records a health transition from a read (nobody watching) with its cause, and reads it back after a restart', async () => {
    const knex = await databases.init(id as any);
    let backend = await backendOn(knex);
    const slug = await productionSlug(backend.server);
    await request(backend.server)
      .get(`${ENTITY}/environments/${slug}/resources`)
      .expect(200);
    // The first read records the state it found: rollouts, deployments, health.
    await waitForAsync(
      async () =>
        (await timeline(backend.server, '&kinds=health')).length === 1,
    );
    const [first] = await timeline(backend.server, '&kinds=health');
    expect(first).toMatchObject({
      environment: slug,
      health: { to: 'Healthy' },
    });
    const pod = crashOnePod('storefront');
    await new Promise(resolve => setTimeout(resolve, 100));
    await request(backend.server)
      .get(`${ENTITY}/environments/${slug}/resources`)
      .expect(200);
    await waitForAsync(
      async () =>
        (await timeline(backend.server, '&kinds=health')).length === 2,
    );
    await backend.stop();

    backend = await backendOn(knex);
    const entries = await timeline(backend.server, '&kinds=health');
    expect(entries[0]).toMatchObject({
      kind: 'health',
      environment: slug,
      summary: 'Healthy → Degraded',
      health: { from: 'Healthy', to: 'Degraded' },
      detail: expect.stringContaining(`caused by Pod ${pod}`),
      links: [{ object: { kind: 'Pod', name: pod, namespace: 'storefront' } }],
    });
    const all = await timeline(backend.server);
    expect(new Set(all.map(e => e.kind))).toEqual(
      new Set(['health', 'rollout', 'deployment', 'event']),
    );
    expect(all.find(e => e.kind === 'event')).toMatchObject({
      summary: expect.stringContaining(`BackOff on Pod ${pod}`),
      severity: 'warning',
    });
    // The next read after the restart finds the same state: nothing new.
    await request(backend.server)
      .get(`${ENTITY}/environments/${slug}/resources`)
      .expect(200);
    // What a read observed is written once the reads have been quiet a moment.
    await new Promise(resolve => setTimeout(resolve, 500));
    expect(await timeline(backend.server, '&kinds=health')).toHaveLength(2);
    await backend.stop();
  });

  it('records from the shared watches while someone views the environment, once across two replicas', async () => {
    const knex = await databases.init(id as any);
    const [a, b] = [await backendOn(knex), await backendOn(knex)];
    const slug = await productionSlug(a.server);
    const streams = await Promise.all(
      [a, b].map(r => {
        const { port } = r.server.address() as AddressInfo;
        return openLiveStream(`http://127.0.0.1:${port}`, [
          `component:default/storefront/${slug}`,
        ]);
      }),
    );
    await Promise.all(streams.map(s => s.next(e => e.event === 'snapshot')));
    const pod = crashOnePod('storefront');
    await waitForAsync(async () =>
      (
        await timeline(a.server, '&kinds=health')
      ).some(e => e.health?.to === 'Degraded'),
    );
    // Both replicas saw it; the database holds it once.
    await new Promise(resolve => setTimeout(resolve, 300));
    const health = await timeline(b.server, '&kinds=health');
    expect(health.filter(e => e.health?.to === 'Degraded')).toHaveLength(1);
    expect(health[0].detail).toContain(`Pod ${pod}`);
    await Promise.all(streams.map(s => s.close()));
    await Promise.all([a.stop(), b.stop()]);
  });
});
