import { mockServices, TestDatabases } from '@backstage/backend-test-utils';
import {
  HealthStatus,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { EnvironmentObservation } from '../../assembling/environmentObserver';
import { LocatedEntity } from '../../locating';
import { TimelineRecorder } from './TimelineRecorder';
import { StoredRecord, TimelineStore } from './TimelineStore';

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

/** An observation of environment `id` with `objects`. */
function observation(
  id: string,
  status: HealthStatus,
  at: string,
  objects: KubernetesObject[] = [],
): EnvironmentObservation {
  return {
    target: {
      host: 'gitlab.example.com',
      environment: { ...located.environments[0], id },
    },
    objects: objects.map(object => ({ object, modified: false })),
    health: { status } as EnvironmentObservation['health'],
    nodes: () => [],
    at,
    source: 'read',
  };
}

/** A ReplicaSet of Deployment web at `revision`: a rollout. */
const replicaSet = (revision: number): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: `web-${revision}`,
    namespace: 'prod',
    uid: `rs-${revision}`,
    creationTimestamp: '2026-03-01T09:00:00Z',
    annotations: { 'deployment.kubernetes.io/revision': String(revision) },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        controller: true,
      },
    ],
  },
});

/** A store that answers at once and keeps what it was asked to insert. */
function memoryStore(failInserts = 0) {
  const inserted: StoredRecord[][] = [];
  const stored = new Map<string, HealthStatus>();
  let failures = failInserts;
  const store = {
    transitionHealthMany: async (
      changes: Array<{ environmentKey: string; health: HealthStatus }>,
    ) =>
      changes.map(({ environmentKey, health }) => {
        const from = stored.get(environmentKey);
        if (from === health) return false;
        stored.set(environmentKey, health);
        return { from };
      }),
    insert: async (rows: StoredRecord[]) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('down');
      }
      inserted.push(rows);
    },
    setEntitiesEnvironments: async () => undefined,
  } as unknown as TimelineStore;
  return { store, inserted };
}

describe('TimelineRecorder', () => {
  it('only queues while observing; the records, then the health moved, are written in order per environment', async () => {
    const { store, inserted } = memoryStore();
    const recorder = new TimelineRecorder(store, mockServices.logger.mock());
    recorder.observe(
      observation('1', 'Progressing', '2026-03-01T10:00:00Z', [replicaSet(1)]),
    );
    recorder.observe(observation('2', 'Healthy', '2026-03-01T10:00:00Z'));
    recorder.observe(
      observation('1', 'Healthy', '2026-03-01T10:00:05Z', [replicaSet(2)]),
    );
    recorder.recordDeployments('gitlab.example.com', { id: '1', slug: 'p' }, [
      {
        iid: '9',
        status: 'success',
        ref: 'main',
        finishedAt: '2026-03-01T10:00:06Z',
      } as any,
    ]);
    await new Promise(resolve => setImmediate(resolve));
    expect(inserted).toHaveLength(0);
    await recorder.flush();
    const keys = (env: string) =>
      inserted
        .flat()
        .filter(r => r.environmentKey === `gitlab.example.com|${env}`)
        .map(r => r.record.key);
    expect(keys('1')).toEqual([
      'rollout:rs-1:1',
      'health:>Progressing:29539320',
      'rollout:rs-2:2',
      'health:Progressing>Healthy:29539320',
      'deployment:9:success',
    ]);
    expect(keys('2')).toEqual(['health:>Healthy:29539320']);
    // The second question about environment 1 waited for the first's answer.
    expect(inserted).toHaveLength(2);
  });

  it('sends a fact once, and again after its write failed', async () => {
    const { store, inserted } = memoryStore(1);
    const logger = mockServices.logger.mock();
    const recorder = new TimelineRecorder(store, logger);
    const observeRollout = () =>
      recorder.observe(
        observation('1', 'Healthy', '2026-03-01T10:00:00Z', [replicaSet(1)]),
      );
    observeRollout();
    await recorder.flush();
    expect(inserted).toHaveLength(0);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('Recording the timeline failed'),
    );
    observeRollout();
    await recorder.flush();
    observeRollout();
    await recorder.flush();
    // The health had moved in the database: its entry went with the failed write.
    expect(inserted.flat().map(r => r.record.key)).toEqual(['rollout:rs-1:1']);
  });

  it('drops what the database is too far behind to take, and says so', async () => {
    const { store, inserted } = memoryStore();
    const logger = mockServices.logger.mock();
    const recorder = new TimelineRecorder(store, logger);
    recorder.located('component:default/shop', located);
    for (let i = 0; i < 20_001; i++)
      recorder.recordAction('component:default/shop', 'production', {
        id: String(i),
        action: 'workload.restart',
        summary: 'restarted',
        at: '2026-03-01T10:00:00Z',
      });
    expect(logger.warn).toHaveBeenCalledWith(
      'The timeline dropped a change: 20000 are waiting for the database.',
    );
    await recorder.flush();
    // The entity's environments took one place in the queue.
    expect(inserted.flat()).toHaveLength(19_999);
  });

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
      recorder.observe(observation(String(i), status, at));
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
