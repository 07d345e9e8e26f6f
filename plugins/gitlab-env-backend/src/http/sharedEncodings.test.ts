import { LiveMessage } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { encodeOnce, encodeSnapshotOnce } from './sharedEncodings';

const key = { entityRef: 'component:default/shop', slug: 'production' };

function snapshotOf(label: string) {
  return jest.fn(
    () =>
      ({
        type: 'heartbeat',
        at: label,
      } as LiveMessage),
  );
}

describe('shared encodings', () => {
  afterEach(() => jest.useRealTimers());

  it('encodes a patch once for every stream of the moment', async () => {
    const event = {};
    const build = snapshotOf('patch');
    const first = encodeOnce(event, key, build, 0);
    expect(encodeOnce(event, key, build, 0)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    await new Promise(resolve => setImmediate(resolve));
    encodeOnce(event, key, build, 0);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('keeps a snapshot for viewers joining together, for 5 s at most', () => {
    jest.useFakeTimers();
    const environment = {};
    const state = {};
    const build = snapshotOf('one');
    encodeSnapshotOnce(environment, state, key, build);
    encodeSnapshotOnce(environment, state, key, build);
    expect(build).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(5_000);
    encodeSnapshotOnce(environment, state, key, build);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('drops an environment’s snapshot once a later state is encoded', () => {
    jest.useFakeTimers();
    const environment = {};
    const before = {};
    const after = {};
    const buildBefore = snapshotOf('before');
    const buildAfter = snapshotOf('after');
    encodeSnapshotOnce(environment, before, key, buildBefore);
    encodeSnapshotOnce(environment, after, key, buildAfter);
    // Within the 5 s, the earlier state's encoding is no longer held.
    encodeSnapshotOnce(environment, before, key, buildBefore);
    expect(buildBefore).toHaveBeenCalledTimes(2);
    // Another environment's snapshot is not touched.
    const other = {};
    const otherState = {};
    const buildOther = snapshotOf('other');
    encodeSnapshotOnce(other, otherState, key, buildOther);
    encodeSnapshotOnce(environment, after, key, buildAfter);
    encodeSnapshotOnce(other, otherState, key, buildOther);
    expect(buildOther).toHaveBeenCalledTimes(1);
  });
});
