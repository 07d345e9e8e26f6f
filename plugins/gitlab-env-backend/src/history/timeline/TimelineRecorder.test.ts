import { mockServices, TestDatabases } from '@backstage/backend-test-utils';
import { HealthStatus } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { EnvironmentObservation } from '../../assembling/environmentObserver';
import { LocatedEntity } from '../../locating';
import { TimelineRecorder } from './TimelineRecorder';
import { TimelineStore } from './TimelineStore';

const databases = TestDatabases.create({ ids: ['SQLITE_3'] });

const located: LocatedEntity = {
  host: 'gitlab.example.com',
  project: { id: '7', fullPath: 'acme/shop' } as LocatedEntity['project'],
  environments: [
    {
      id: '701',
      name: 'production',
      slug: 'production',
      tier: 'production',
      state: 'available',
    },
  ],
  warnings: [],
};

/** A store whose entity writes are counted and answer when `settle` is called. */
function slowStore(fail = false) {
  const writes: Array<() => void> = [];
  const store = {
    setEntitiesEnvironments: () =>
      new Promise<void>((resolve, reject) =>
        writes.push(() => (fail ? reject(new Error('down')) : resolve())),
      ),
  } as unknown as TimelineStore;
  /** Resolves once `n` writes were asked for (they go out in the next batch). */
  const asked = async (n: number) => {
    while (writes.length < n)
      await new Promise(resolve => setImmediate(resolve));
  };
  return { store, writes, asked };
}

describe('TimelineRecorder', () => {
  it("writes an entity's environments once when it is located again before the write is done", async () => {
    const { store, writes, asked } = slowStore();
    const recorder = new TimelineRecorder(store, mockServices.logger.mock());
    for (let i = 0; i < 5; i++)
      recorder.located('component:default/shop', located);
    await asked(1);
    writes.forEach(settle => settle());
    await recorder.flush();
    expect(writes).toHaveLength(1);
  });

  it('writes them again on the next locate after a write failed', async () => {
    const { store, writes, asked } = slowStore(true);
    const recorder = new TimelineRecorder(store, mockServices.logger.mock());
    recorder.located('component:default/shop', located);
    await asked(1);
    writes[0]();
    await recorder.flush();
    recorder.located('component:default/shop', located);
    await asked(2);
    expect(writes).toHaveLength(2);
    writes[1]();
    await recorder.flush();
  });

  it("records every environment's health transitions when many are observed at once, in a few batched statements", async () => {
    const knex = await databases.init('SQLITE_3');
    const store = await TimelineStore.create(mockServices.database({ knex }));
    const transitions = jest.spyOn(store, 'transitionHealthMany');
    const inserts = jest.spyOn(store, 'insert');
    const recorder = new TimelineRecorder(store, mockServices.logger.mock());
    const observe = (i: number, status: HealthStatus, at: string) =>
      recorder.observe({
        target: {
          host: 'gitlab.example.com',
          environment: { ...located.environments[0], id: String(i) },
        },
        objects: [],
        health: { status } as EnvironmentObservation['health'],
        nodes: () => [],
        at,
        source: 'read',
      });
    for (let i = 0; i < 40; i++) observe(i, 'Healthy', '2026-03-01T10:00:00Z');
    await recorder.flush();
    for (let i = 0; i < 40; i++)
      observe(i, i % 2 ? 'Degraded' : 'Healthy', '2026-03-01T10:01:00Z');
    await recorder.flush();
    // 40 first states, then the 20 that moved; the unchanged were not asked again.
    expect(await store.count()).toBe(60);
    expect(transitions.mock.calls.map(([changes]) => changes.length)).toEqual([
      40, 20,
    ]);
    expect(inserts).toHaveBeenCalledTimes(2);
  });
});
