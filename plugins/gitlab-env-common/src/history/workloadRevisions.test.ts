import { KubernetesObject } from '../types';
import { rolloutUndoPlan, workloadRevisions } from './workloadRevisions';

const template = (image: string, extra: Record<string, unknown> = {}) => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'api', image, ...extra }] },
});

const deployment: KubernetesObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'prod',
    uid: 'd-1',
    annotations: {
      'deployment.kubernetes.io/revision': '3',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
      'team.example.com/owner': 'shop',
    },
  },
  spec: { replicas: 2, template: template('web:3') },
};

function replicaSet(
  revision: number,
  image: string,
  options: { uid?: string; cause?: string; owner?: string } = {},
): KubernetesObject {
  const hash = `h${revision}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `web-${hash}`,
      namespace: 'prod',
      uid: `rs-${revision}`,
      creationTimestamp: `2026-01-0${revision}T10:00:00Z`,
      annotations: {
        'deployment.kubernetes.io/revision': String(revision),
        'deployment.kubernetes.io/desired-replicas': '2',
        ...(options.cause && { 'kubernetes.io/change-cause': options.cause }),
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: options.owner ?? 'd-1',
          controller: true,
        },
      ],
    },
    spec: {
      template: {
        metadata: { labels: { app: 'web', 'pod-template-hash': hash } },
        spec: { containers: [{ name: 'api', image }] },
      },
    },
  };
}

const history = [
  replicaSet(1, 'web:1', { cause: 'first' }),
  replicaSet(2, 'web:2'),
  replicaSet(3, 'web:3'),
  // Another Deployment's ReplicaSet in the same namespace.
  replicaSet(9, 'other:9', { owner: 'd-2' }),
];

describe('workloadRevisions', () => {
  it("lists a Deployment's ReplicaSets by revision, the current one marked, each with its diff from now", () => {
    const revisions = workloadRevisions(deployment, history);
    expect(revisions.map(r => [r.revision, r.current])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(revisions[0]).toMatchObject({
      source: { kind: 'ReplicaSet', name: 'web-h1' },
      changeCause: 'first',
      images: { api: 'web:1' },
      diffFromCurrent: [
        {
          path: 'spec.containers[name=api].image',
          change: 'changed',
          before: 'web:3',
          after: 'web:1',
        },
      ],
    });
    // pod-template-hash is the controller's, not a change.
    expect(revisions[2].diffFromCurrent).toEqual([]);
  });

  it("reads a StatefulSet's ControllerRevisions (the template is data's strategic merge patch)", () => {
    const sts: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'prod', uid: 's-1' },
      spec: { template: template('db:2') },
    };
    const revision = (n: number, image: string): KubernetesObject =>
      ({
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {
          name: `db-${n}`,
          namespace: 'prod',
          ownerReferences: [
            { kind: 'StatefulSet', name: 'db', uid: 's-1', controller: true },
          ],
        },
        revision: n,
        data: {
          spec: { template: { ...template(image), $patch: 'replace' } },
        },
      } as KubernetesObject);
    const revisions = workloadRevisions(sts, [
      revision(2, 'db:2'),
      revision(1, 'db:1'),
    ]);
    expect(revisions.map(r => [r.revision, r.current, r.images.api])).toEqual([
      [1, false, 'db:1'],
      [2, true, 'db:2'],
    ]);
    const plan = rolloutUndoPlan(sts, [
      revision(1, 'db:1'),
      revision(2, 'db:2'),
    ]);
    expect(plan).toMatchObject({
      outcome: 'patch',
      revision: 1,
      contentType: 'application/strategic-merge-patch+json',
      body: { spec: { template: { $patch: 'replace' } } },
    });
    expect(rolloutUndoPlan(sts, [revision(2, 'db:2')])).toMatchObject({
      outcome: 'refused',
      reason: 'no-history',
      message: 'no last revision to roll back to',
    });
  });
});

describe('rolloutUndoPlan', () => {
  it('sends what kubectl sends: the template without pod-template-hash and the annotations kubectl keeps', () => {
    const plan = rolloutUndoPlan(deployment, history, 1);
    expect(plan).toEqual({
      outcome: 'patch',
      revision: 1,
      contentType: 'application/json-patch+json',
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: { containers: [{ name: 'api', image: 'web:1' }] },
      },
      body: [
        {
          op: 'replace',
          path: '/spec/template',
          value: {
            metadata: { creationTimestamp: null, labels: { app: 'web' } },
            spec: { containers: [{ name: 'api', image: 'web:1' }] },
          },
        },
        {
          op: 'replace',
          path: '/metadata/annotations',
          // The Deployment's own revision and last-applied stay; its other
          // annotations give way to the ReplicaSet's (change-cause).
          value: {
            'kubectl.kubernetes.io/last-applied-configuration': '{}',
            'deployment.kubernetes.io/revision': '3',
            'kubernetes.io/change-cause': 'first',
          },
        },
      ],
    });
  });

  it('goes to the previous revision by default', () => {
    expect(rolloutUndoPlan(deployment, history)).toMatchObject({
      outcome: 'patch',
      revision: 2,
    });
  });

  it('refuses as kubectl does: a paused Deployment, no history, an unknown revision', () => {
    expect(
      rolloutUndoPlan(
        { ...deployment, spec: { ...deployment.spec, paused: true } },
        history,
      ),
    ).toMatchObject({ outcome: 'refused', reason: 'paused' });
    expect(rolloutUndoPlan(deployment, [history[2]])).toEqual({
      outcome: 'refused',
      reason: 'no-history',
      message: 'no rollout history found for deployment "web"',
    });
    expect(rolloutUndoPlan(deployment, history, 7)).toEqual({
      outcome: 'refused',
      reason: 'not-found',
      message: 'unable to find specified revision 7 in history',
    });
  });

  it('skips a revision whose template already runs, ignoring empty fields', () => {
    const same = replicaSet(4, 'web:3');
    (same.spec!.template.spec.containers[0] as any).resources = {};
    expect(rolloutUndoPlan(deployment, [...history, same], 4)).toEqual({
      outcome: 'unchanged',
      revision: 4,
      message: 'skipped rollback (current template already matches revision 4)',
    });
  });
});
