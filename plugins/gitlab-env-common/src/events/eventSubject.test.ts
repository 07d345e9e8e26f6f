import { KubernetesObject } from '../types';
import { eventSubjectMatcher, isEventAbout } from './eventSubject';

const event = (involvedObject: unknown): KubernetesObject =>
  ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: 'shop' },
    involvedObject,
  } as KubernetesObject);

const web = { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'u1' };

describe('isEventAbout', () => {
  it.each([
    [
      'the same uid',
      { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'u1' },
      true,
    ],
    [
      'the same uid whatever the name says',
      { kind: 'Pod', name: 'other', uid: 'u1' },
      true,
    ],
    [
      'another uid under the same name (a recreated object)',
      { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'u0' },
      false,
    ],
    [
      'kind, namespace and name without a uid',
      { kind: 'Pod', namespace: 'shop', name: 'web' },
      true,
    ],
    [
      'another namespace',
      { kind: 'Pod', namespace: 'other', name: 'web' },
      false,
    ],
    [
      'another kind',
      { kind: 'Service', namespace: 'shop', name: 'web' },
      false,
    ],
    ['no involvedObject', undefined, false],
  ])('%s: %s', (_, involved, about) => {
    expect(isEventAbout(event(involved), web)).toBe(about);
  });

  it('matches by name a subject whose uid is not known (a Flux object before it is read)', () => {
    const subject = {
      kind: 'Kustomization',
      namespace: 'flux-system',
      name: 'app',
    };
    expect(
      isEventAbout(
        event({
          kind: 'Kustomization',
          namespace: 'flux-system',
          name: 'app',
          uid: 'k1',
        }),
        subject,
      ),
    ).toBe(true);
  });

  it('treats a missing namespace as a cluster-scoped object', () => {
    const node = { kind: 'Node', namespace: '', name: 'n1' };
    expect(isEventAbout(event({ kind: 'Node', name: 'n1' }), node)).toBe(true);
  });

  it('finds the subject among many, and only Events are about anything', () => {
    const api = { kind: 'Pod', namespace: 'shop', name: 'api', uid: 'u2' };
    const about = eventSubjectMatcher([web, api]);
    expect(about(event({ kind: 'Pod', namespace: 'shop', name: 'api' }))).toBe(
      api,
    );
    expect(about(event({ uid: 'u1' }))).toBe(web);
    expect(
      about({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        involvedObject: { uid: 'u1' },
      } as KubernetesObject),
    ).toBeUndefined();
  });
});
