import type {
  KubernetesObject,
  WatchEvent,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { UidGuard } from './uidGuard';

const pod = (
  name: string,
  uid: string,
  phase = 'Running',
): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop', uid },
  status: { phase },
});
const added = (object: KubernetesObject): WatchEvent => ({
  type: 'ADDED',
  object,
});
const deleted = (object: KubernetesObject): WatchEvent => ({
  type: 'DELETED',
  object,
});
const names = (events: WatchEvent[]) =>
  events.map(e => e.object.metadata!.name);

describe('UidGuard', () => {
  it('keeps the first object holding a uid and names the others in one warning', () => {
    const guard = new UidGuard();
    expect(
      names(
        guard.filter([
          added(pod('a', 'u1')),
          added(pod('b', 'u1')),
          added(pod('c', 'u2')),
        ]),
      ),
    ).toEqual(['a', 'c']);
    expect(names(guard.filter([added(pod('b', 'u1'))]))).toEqual([]);
    expect(guard.warnings()).toEqual([
      {
        code: 'UPSTREAM_MALFORMED',
        message:
          '2 objects share the uid u1: v1 Pod shop/a, v1 Pod shop/b; only the first is shown.',
        resource: 'v1 Pod shop/a',
      },
    ]);
  });

  it('passes the holder changing, and objects without a uid', () => {
    const guard = new UidGuard();
    guard.filter([added(pod('a', 'u1'))]);
    const modified: WatchEvent = {
      type: 'MODIFIED',
      object: pod('a', 'u1', 'Failed'),
    };
    expect(guard.filter([modified])).toEqual([modified]);
    const noUid = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } };
    expect(guard.filter([added(noUid), added(noUid)])).toHaveLength(2);
    expect(guard.warnings()).toEqual([]);
  });

  it('forgets an object left out once it is deleted, and passes its deletion no further', () => {
    const guard = new UidGuard();
    guard.filter([added(pod('a', 'u1')), added(pod('b', 'u1'))]);
    expect(guard.filter([deleted(pod('b', 'u1'))])).toEqual([]);
    expect(guard.warnings()).toEqual([]);
  });

  it('frees the uid when its holder is deleted: the next object to come holds it', () => {
    const guard = new UidGuard();
    guard.filter([added(pod('a', 'u1')), added(pod('b', 'u1'))]);
    expect(names(guard.filter([deleted(pod('a', 'u1'))]))).toEqual(['a']);
    expect(guard.warnings()).toEqual([]);
    expect(names(guard.filter([added(pod('b', 'u1'))]))).toEqual(['b']);
    expect(names(guard.filter([deleted(pod('c', 'u9'))]))).toEqual(['c']);
  });

  it('says how many more share a uid beyond the five it names', () => {
    const guard = new UidGuard();
    guard.filter(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(n => added(pod(n, 'u1'))),
    );
    expect(guard.warnings()[0].message).toBe(
      '7 objects share the uid u1: v1 Pod shop/a, v1 Pod shop/b, v1 Pod shop/c, v1 Pod shop/d, v1 Pod shop/e and 2 more; only the first is shown.',
    );
  });
});
