import { mockServices } from '@backstage/backend-test-utils';
import { LocatedEntity } from '../../locating';
import { TimelineRecorder } from './TimelineRecorder';
import { TimelineStore } from './TimelineStore';

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
    setEntityEnvironments: () =>
      new Promise<void>((resolve, reject) =>
        writes.push(() => (fail ? reject(new Error('down')) : resolve())),
      ),
  } as unknown as TimelineStore;
  return { store, writes };
}

describe('TimelineRecorder', () => {
  it("writes an entity's environments once when it is located again before the write is done", async () => {
    const { store, writes } = slowStore();
    const recorder = new TimelineRecorder(store, mockServices.logger.mock());
    for (let i = 0; i < 5; i++)
      recorder.located('component:default/shop', located);
    await new Promise(resolve => setImmediate(resolve));
    writes.forEach(settle => settle());
    await recorder.flush();
    expect(writes).toHaveLength(1);
  });

  it('writes them again on the next locate after a write failed', async () => {
    const { store, writes } = slowStore(true);
    const recorder = new TimelineRecorder(store, mockServices.logger.mock());
    recorder.located('component:default/shop', located);
    await new Promise(resolve => setImmediate(resolve));
    writes[0]();
    await recorder.flush();
    recorder.located('component:default/shop', located);
    await new Promise(resolve => setImmediate(resolve));
    expect(writes).toHaveLength(2);
    writes[1]();
    await recorder.flush();
  });
});
