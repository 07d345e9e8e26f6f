import { KubernetesObject } from '../types';
import { deploymentImageChanges } from './deploymentImages';

const deployment: KubernetesObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'prod', uid: 'd' },
  spec: {
    template: {
      spec: { containers: [{ name: 'api', image: 'reg/api:3.8.2' }] },
    },
  },
};
const rs = (
  revision: number,
  image: string,
  created: string,
): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: `api-${revision}`,
    namespace: 'prod',
    creationTimestamp: created,
    annotations: { 'deployment.kubernetes.io/revision': String(revision) },
    ownerReferences: [
      { kind: 'Deployment', name: 'api', uid: 'd', controller: true },
    ],
  },
  spec: { template: { spec: { containers: [{ name: 'api', image }] } } },
});
const cluster = [
  deployment,
  rs(3, 'reg/api:3.8.0', '2026-01-01T00:00:00Z'),
  rs(4, 'reg/api:3.8.1', '2026-01-02T00:00:00Z'),
  rs(5, 'reg/api:3.8.2', '2026-01-03T00:00:00Z'),
];

describe('deploymentImageChanges', () => {
  it('finds the revisions by release tag, against the previous successful deployment', () => {
    expect(
      deploymentImageChanges(
        cluster,
        {
          ref: 'v3.8.2',
          tag: true,
          sha: '5d6e7f80',
          createdAt: '2026-03-01T00:00:00Z',
        },
        { ref: 'v3.8.0', tag: true, sha: '8c1d2e3f' },
      ),
    ).toEqual([
      {
        workload: 'Deployment prod/api',
        container: 'api',
        from: 'reg/api:3.8.0',
        to: 'reg/api:3.8.2',
        source: 'ReplicaSet',
        revision: 5,
      },
    ]);
  });

  it('says nothing changed when a re-deploy rolls out the same revision', () => {
    expect(
      deploymentImageChanges(
        cluster,
        { ref: 'v3.8.0', tag: true, sha: '8c1d2e3f' },
        { ref: 'v3.8.0', tag: true, sha: '8c1d2e3f' },
      ),
    ).toEqual([]);
  });

  it('finds images tagged by commit, and otherwise the revision made while the deployment ran', () => {
    const bySha = [
      deployment,
      rs(6, 'reg/api:main-a1b2c3d4', '2026-01-04T00:00:00Z'),
      ...cluster.slice(1),
    ];
    expect(
      deploymentImageChanges(bySha, { ref: 'main', sha: 'a1b2c3d4e5f6' }).map(
        c => c.to,
      ),
    ).toEqual(['reg/api:main-a1b2c3d4']);
    expect(
      deploymentImageChanges(cluster, {
        ref: 'main',
        sha: 'ffffffff',
        createdAt: '2026-01-02T23:58:00Z',
        finishedAt: '2026-01-03T00:01:00Z',
      }).map(c => [c.from, c.to]),
    ).toEqual([['reg/api:3.8.1', 'reg/api:3.8.2']]);
    // A branch ref names no image: 'main' alone matches nothing.
    expect(
      deploymentImageChanges(cluster, { ref: 'main', sha: 'ffffffff' }),
    ).toEqual([]);
  });
});
