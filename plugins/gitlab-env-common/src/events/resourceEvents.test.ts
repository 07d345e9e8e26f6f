import { buildResourceGraph } from '../graph';
import { KubernetesObject } from '../types';
import { resourceEvents } from './resourceEvents';

const pod = (name: string): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop', uid: `uid-${name}` },
});
const event = (
  name: string,
  involvedObject: object,
  extra: object = {},
): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'shop' },
  involvedObject,
  ...extra,
});

describe('resourceEvents', () => {
  const objects = [
    pod('api-1'),
    pod('api-2'),
    event(
      'api-1.a',
      { kind: 'Pod', name: 'api-1', namespace: 'shop', uid: 'uid-api-1' },
      {
        type: 'Warning',
        reason: 'BackOff',
        message: 'Back-off restarting failed container',
        count: 12,
        lastTimestamp: '2026-01-01T10:00:00Z',
      },
    ),
    event(
      'api-1.b',
      { kind: 'Pod', name: 'api-1', namespace: 'shop' },
      { reason: 'Pulled', lastTimestamp: '2026-01-01T11:00:00Z' },
    ),
    // The same name, another object: an earlier pod of that name.
    event('api-1.c', { kind: 'Pod', name: 'api-1', uid: 'uid-old' }),
  ];
  const nodes = buildResourceGraph(objects).nodes;
  const byName = (name: string) => nodes.find(n => n.name === name)!;

  it('finds the events of one object by uid, else by kind and name, newest first', () => {
    expect(resourceEvents(byName('api-1'), objects)).toEqual([
      {
        type: 'Normal',
        reason: 'Pulled',
        message: '',
        count: 1,
        lastSeen: '2026-01-01T11:00:00Z',
      },
      {
        type: 'Warning',
        reason: 'BackOff',
        message: 'Back-off restarting failed container',
        count: 12,
        lastSeen: '2026-01-01T10:00:00Z',
      },
    ]);
    expect(resourceEvents(byName('api-2'), objects)).toEqual([]);
  });
});
