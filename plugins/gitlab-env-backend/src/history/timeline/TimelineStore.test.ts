import { mockServices, TestDatabases } from '@backstage/backend-test-utils';
import { TimelineRecord } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { startPostgresSync } from '../../__testUtils__/postgresServer';
import { TimelineStore } from './TimelineStore';

const postgres = startPostgresSync();
const databases = TestDatabases.create({
  ids: ['SQLITE_3', postgres.id as any],
});

const ENTITY = 'component:default/shop';
const PROD = 'gitlab.example.com|1021';
const STAGING = 'gitlab.example.com|1022';

function record(
  key: string,
  at: string,
  kind: TimelineRecord['kind'] = 'rollout',
): TimelineRecord {
  return { key, kind, at, summary: `fact ${key}`, links: [] };
}

async function storeOn(id: string) {
  const knex = await databases.init(id as any);
  const database = mockServices.database({ knex });
  return { knex, store: await TimelineStore.create(database), database };
}

describe.each(databases.eachSupportedId())('TimelineStore on %s', id => {
  it('runs on both databases', () => {
    expect(['SQLITE_3', postgres.id]).toContain(id);
  });

  it('pages an entity’s environments newest first, by kind and window, one query each', async () => {
    const { store } = await storeOn(id);
    await store.setEntityEnvironments(ENTITY, [
      { key: PROD, slug: 'production', name: 'production' },
      { key: STAGING, slug: 'staging', name: 'staging' },
    ]);
    await store.insert([
      ...[1, 2, 3, 4, 5].map(i => ({
        environmentKey: PROD,
        environmentSlug: 'production',
        record: record(`p${i}`, `2026-03-0${i}T10:00:00Z`),
      })),
      {
        environmentKey: STAGING,
        environmentSlug: 'staging',
        record: record('s1', '2026-03-03T12:00:00Z', 'health'),
      },
      // Another entity's environment: never shown for this one.
      {
        environmentKey: 'gitlab.example.com|9',
        environmentSlug: 'other',
        record: record('x', '2026-03-04T00:00:00Z'),
      },
    ]);
    const first = await store.page({ entityRef: ENTITY, limit: 3 });
    expect(first.entries.map(e => e.summary)).toEqual([
      'fact p5',
      'fact p4',
      'fact s1',
    ]);
    expect(first.entries[2]).toMatchObject({
      kind: 'health',
      environment: 'staging',
      at: '2026-03-03T12:00:00.000Z',
    });
    const second = await store.page({
      entityRef: ENTITY,
      limit: 3,
      cursor: first.nextCursor,
    });
    expect(second.entries.map(e => e.summary)).toEqual([
      'fact p3',
      'fact p2',
      'fact p1',
    ]);
    expect(second.nextCursor).toBeUndefined();
    const staging = await store.page({
      entityRef: ENTITY,
      environmentSlug: 'staging',
      limit: 10,
    });
    expect(staging.entries.map(e => e.summary)).toEqual(['fact s1']);
    const health = await store.page({
      entityRef: ENTITY,
      kinds: ['health'],
      limit: 10,
    });
    expect(health.entries.map(e => e.summary)).toEqual(['fact s1']);
    const window = await store.page({
      entityRef: ENTITY,
      from: Date.parse('2026-03-02T00:00:00Z'),
      to: Date.parse('2026-03-04T00:00:00Z'),
      limit: 10,
    });
    expect(window.entries.map(e => e.summary)).toEqual([
      'fact s1',
      'fact p3',
      'fact p2',
    ]);
  });

  it('stores a fact once when two replicas record it at the same time', async () => {
    const { knex, store } = await storeOn(id);
    const replica = await TimelineStore.create(mockServices.database({ knex }));
    const facts = [1, 2, 3].map(i => ({
      environmentKey: PROD,
      environmentSlug: 'production',
      record: record(`r${i}`, `2026-03-0${i}T10:00:00Z`),
    }));
    await Promise.all([
      store.insert(facts),
      replica.insert(facts),
      store.insert(facts.slice(1)),
    ]);
    expect(await store.count()).toBe(3);
  });

  it('stores a load’s thousands of facts as given, in their order, each once', async () => {
    const { store } = await storeOn(id);
    await store.setEntityEnvironments(ENTITY, [
      { key: PROD, slug: 'production', name: 'production' },
    ]);
    const at = '2026-03-01T10:00:00.000Z';
    const facts = Array.from({ length: 4500 }, (_, i) => ({
      environmentKey: PROD,
      environmentSlug: 'production',
      record: {
        ...record(`r${i % 4000}`, at, i % 2 ? 'event' : 'rollout'),
        detail: `"quoted" ${'\\'} ü ${i}`,
        severity: 'warning' as const,
      },
    }));
    await store.insert(facts.slice(0, 10));
    await store.insert(facts);
    expect(await store.count()).toBe(4000);
    // Equal times: the newest first is the last inserted.
    const { entries } = await store.page({ entityRef: ENTITY, limit: 3 });
    expect(entries).toEqual(
      [3999, 3998, 3997].map(i => ({
        id: expect.any(String),
        kind: i % 2 ? 'event' : 'rollout',
        at,
        environment: 'production',
        summary: `fact r${i}`,
        detail: `"quoted" ${'\\'} ü ${i}`,
        severity: 'warning',
        links: [],
      })),
    );
  });

  it('moves the stored health once per transition, whichever replica asks, never back to an older observation', async () => {
    const { knex, store } = await storeOn(id);
    const replica = await TimelineStore.create(mockServices.database({ knex }));
    expect(await store.transitionHealth(PROD, 'Healthy', 1000)).toEqual({});
    expect(await replica.transitionHealth(PROD, 'Healthy', 1001)).toBe(false);
    const both = await Promise.all([
      store.transitionHealth(PROD, 'Degraded', 2000),
      replica.transitionHealth(PROD, 'Degraded', 2001),
    ]);
    expect(both.filter(Boolean)).toEqual([{ from: 'Healthy' }]);
    // A replica behind the others saw Progressing before the Degraded stored.
    expect(await replica.transitionHealth(PROD, 'Progressing', 1500)).toBe(
      false,
    );
    const restarted = await TimelineStore.create(
      mockServices.database({ knex }),
    );
    expect(await restarted.transitionHealth(PROD, 'Healthy', 3000)).toEqual({
      from: 'Degraded',
    });
  });

  it('moves many environments’ health at once as it moves each one’s', async () => {
    const { knex, store } = await storeOn(id);
    const replica = await TimelineStore.create(mockServices.database({ knex }));
    const key = (i: number) => `gitlab.example.com|${i}`;
    expect(await replica.transitionHealth(key(1), 'Healthy', 1000)).toEqual({});
    expect(await replica.transitionHealth(key(2), 'Healthy', 1000)).toEqual({});
    expect(await replica.transitionHealth(key(3), 'Degraded', 5000)).toEqual(
      {},
    );
    const answers = await store.transitionHealthMany([
      // Unchanged, moved, older than what is stored, stored for the first time.
      { environmentKey: key(1), health: 'Healthy', at: 2000 },
      { environmentKey: key(2), health: 'Degraded', at: 2000 },
      { environmentKey: key(3), health: 'Healthy', at: 4000 },
      ...[4, 5, 6].map(i => ({
        environmentKey: key(i),
        health: 'Progressing' as const,
        at: 2000,
      })),
    ]);
    expect(answers).toEqual([false, { from: 'Healthy' }, false, {}, {}, {}]);
    // What is stored now is what the next change is compared with.
    expect(await replica.transitionHealth(key(2), 'Degraded', 2500)).toBe(
      false,
    );
    expect(await replica.transitionHealth(key(5), 'Healthy', 3000)).toEqual({
      from: 'Progressing',
    });
    // The same environment twice is moved in turn.
    expect(
      await store.transitionHealthMany([
        { environmentKey: key(6), health: 'Healthy', at: 3000 },
        { environmentKey: key(6), health: 'Degraded', at: 3100 },
      ]),
    ).toEqual([{ from: 'Progressing' }, { from: 'Healthy' }]);
  });

  it('replaces many entities’ environments at once as it replaces each one’s', async () => {
    const { store } = await storeOn(id);
    const other = 'component:default/cart';
    const env = (key: string) => ({ key, slug: key, name: key });
    await store.setEntityEnvironments(ENTITY, [env(PROD), env(STAGING)]);
    await store.setEntityEnvironments(other, [env(PROD)]);
    await store.setEntitiesEnvironments([
      { entityRef: ENTITY, environments: [env(PROD)] },
      { entityRef: other, environments: [env(STAGING)] },
    ]);
    await store.insert(
      [PROD, STAGING].map(key => ({
        environmentKey: key,
        environmentSlug: key,
        record: record(`at ${key}`, '2026-03-01T10:00:00Z'),
      })),
    );
    const shown = async (entityRef: string) =>
      (await store.page({ entityRef, limit: 10 })).entries.map(e => e.summary);
    expect(await shown(ENTITY)).toEqual([`fact at ${PROD}`]);
    expect(await shown(other)).toEqual([`fact at ${STAGING}`]);
  });

  it('shows an environment under its new slug once it is renamed', async () => {
    const { store } = await storeOn(id);
    await store.setEntityEnvironments(ENTITY, [
      { key: PROD, slug: 'production', name: 'production' },
    ]);
    await store.insert([
      {
        environmentKey: PROD,
        environmentSlug: 'production',
        record: record('r1', '2026-03-01T10:00:00Z'),
      },
    ]);
    await store.setEntitiesEnvironments([
      {
        entityRef: ENTITY,
        environments: [{ key: PROD, slug: 'prod', name: 'prod' }],
      },
    ]);
    const { entries } = await store.page({ entityRef: ENTITY, limit: 10 });
    expect(entries.map(e => e.environment)).toEqual(['prod']);
  });

  it('deletes what retention and the per-environment bound leave out', async () => {
    const { store } = await storeOn(id);
    await store.setEntityEnvironments(ENTITY, [
      { key: PROD, slug: 'production', name: 'production' },
    ]);
    await store.insert(
      [1, 2, 3, 4, 5, 6].map(i => ({
        environmentKey: PROD,
        environmentSlug: 'production',
        record: record(`q${i}`, `2026-03-0${i}T10:00:00Z`),
      })),
    );
    const pruned = await store.prune({
      olderThan: Date.parse('2026-03-02T00:00:00Z'),
      maxPerEnvironment: 3,
    });
    expect(pruned).toEqual({ expired: 1, overflow: 2 });
    const { entries } = await store.page({ entityRef: ENTITY, limit: 10 });
    expect(entries.map(e => e.summary)).toEqual([
      'fact q6',
      'fact q5',
      'fact q4',
    ]);
  });

  it('refuses a cursor it did not make', async () => {
    const { store } = await storeOn(id);
    await expect(
      store.page({ entityRef: ENTITY, limit: 1, cursor: 'bm9wZQ' }),
    ).rejects.toMatchObject({
      detail: { code: 'INVALID_REQUEST' },
    });
  });
});
