import { KubernetesObject, ResourceNode } from '../types';
import { healthCauseOf } from './healthCause';
import {
  deploymentTimelineRecord,
  healthTransitionRecord,
  timelineRecordsOf,
} from './timelineRecords';

const seen = '2026-03-01T12:00:00.000Z';

const rs = (annotations: Record<string, string>): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: 'web-abc',
    namespace: 'prod',
    uid: 'rs-1',
    creationTimestamp: '2026-02-01T08:00:00Z',
    annotations,
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        controller: true,
      },
    ],
  },
  spec: {
    template: { spec: { containers: [{ name: 'api', image: 'web:2' }] } },
  },
});

describe('timelineRecordsOf', () => {
  it('times a new ReplicaSet by its creation and keys it by uid and revision', () => {
    expect(
      timelineRecordsOf(rs({ 'deployment.kubernetes.io/revision': '4' }), seen),
    ).toEqual([
      {
        key: 'rollout:rs-1:4',
        kind: 'rollout',
        at: '2026-02-01T08:00:00.000Z',
        summary: 'Deployment web rolled out revision 4',
        detail: 'api: web:2',
        links: [
          {
            label: 'Deployment web',
            object: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              namespace: 'prod',
              name: 'web',
            },
          },
          {
            label: 'ReplicaSet web-abc',
            object: {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              namespace: 'prod',
              name: 'web-abc',
            },
          },
        ],
      },
    ]);
  });

  it('times a ReplicaSet a rollback reused when it is seen: its creation is older', () => {
    const [record] = timelineRecordsOf(
      rs({
        'deployment.kubernetes.io/revision': '6',
        'deployment.kubernetes.io/revision-history': '2,4',
      }),
      seen,
    );
    expect(record).toMatchObject({
      key: 'rollout:rs-1:6',
      at: seen,
      summary:
        'Deployment web rolled out revision 6 (an earlier template again)',
    });
  });

  it("records a Kustomization's revisions from status.history and its Ready transition", () => {
    const ks = {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'app', namespace: 'flux-system', uid: 'k-1' },
      status: {
        lastAppliedRevision: 'v2@sha1:bbb',
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'HealthCheckFailed',
            message: 'timeout waiting for Deployment/prod/web',
            lastTransitionTime: '2026-03-01T11:00:00Z',
          },
        ],
        history: [
          {
            digest: 'sha256:2',
            firstReconciled: '2026-03-01T10:00:00Z',
            lastReconciled: '2026-03-01T11:00:00Z',
            lastReconciledStatus: 'HealthCheckFailed',
            totalReconciliations: 3,
            metadata: { revision: 'v2@sha1:bbb' },
          },
          {
            digest: 'sha256:1',
            firstReconciled: '2026-02-20T10:00:00Z',
            lastReconciledStatus: 'ReconciliationSucceeded',
            metadata: { revision: 'v1@sha1:aaa' },
          },
        ],
      },
    } as KubernetesObject;
    const records = timelineRecordsOf(ks, seen);
    expect(records.map(r => [r.key, r.at, r.severity])).toEqual([
      ['flux:k-1:revision:v2@sha1:bbb', '2026-03-01T10:00:00.000Z', 'error'],
      ['flux:k-1:revision:v1@sha1:aaa', '2026-02-20T10:00:00.000Z', undefined],
      [
        'flux:k-1:ready:2026-03-01T11:00:00.000Z:False:HealthCheckFailed',
        '2026-03-01T11:00:00.000Z',
        'error',
      ],
    ]);
    expect(records[2].detail).toBe('timeout waiting for Deployment/prod/web');
  });

  it('records a Warning Event once an hour, with its object, and ignores Normal ones', () => {
    const event = (type: string, lastTimestamp: string): KubernetesObject =>
      ({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web-1.abc', namespace: 'prod', uid: 'e-1' },
        type,
        reason: 'BackOff',
        message: 'Back-off restarting failed container api',
        count: 7,
        lastTimestamp,
        involvedObject: {
          kind: 'Pod',
          name: 'web-1',
          namespace: 'prod',
          apiVersion: 'v1',
        },
      } as KubernetesObject);
    const [a] = timelineRecordsOf(
      event('Warning', '2026-03-01T10:05:00Z'),
      seen,
    );
    const [b] = timelineRecordsOf(
      event('Warning', '2026-03-01T10:55:00Z'),
      seen,
    );
    const [c] = timelineRecordsOf(
      event('Warning', '2026-03-01T11:05:00Z'),
      seen,
    );
    expect(a).toMatchObject({
      kind: 'event',
      summary: 'BackOff on Pod web-1 (×7)',
      detail: 'Back-off restarting failed container api',
      severity: 'warning',
      links: [{ object: { kind: 'Pod', name: 'web-1' } }],
    });
    expect(a.key).toBe(b.key);
    expect(c.key).not.toBe(a.key);
    expect(
      timelineRecordsOf(event('Normal', '2026-03-01T10:05:00Z'), seen),
    ).toEqual([]);
  });
});

describe('health transitions', () => {
  const node = (
    id: string,
    kind: string,
    status: 'Healthy' | 'Degraded',
    message: string | undefined,
    parentId?: string,
  ): ResourceNode => {
    const [group, , namespace, name] = id.split('/');
    return {
      id,
      group,
      version: 'v1',
      kind,
      namespace,
      name,
      resourceVersion: '42',
      health: { status, message },
      parentId,
      childIds: [],
    };
  };
  const nodes = [
    node(
      '/Pod/prod/web-1',
      'Pod',
      'Degraded',
      'CrashLoopBackOff',
      'apps/ReplicaSet/prod/web-abc',
    ),
    node(
      'apps/ReplicaSet/prod/web-abc',
      'ReplicaSet',
      'Degraded',
      undefined,
      'apps/Deployment/prod/web',
    ),
    node(
      'apps/Deployment/prod/web',
      'Deployment',
      'Degraded',
      'Deployment "web" exceeded its progress deadline',
    ),
    node('/Service/prod/web', 'Service', 'Healthy', undefined),
  ];

  it('blames the object nearest a root whose own health is the environment’s', () => {
    const cause = healthCauseOf(nodes, 'Degraded');
    expect(cause?.text).toBe(
      'Deployment web: Deployment "web" exceeded its progress deadline',
    );
    const record = healthTransitionRecord({
      from: 'Healthy',
      to: 'Degraded',
      cause,
      at: seen,
    });
    expect(record).toMatchObject({
      key: 'health:Healthy>Degraded:apps/Deployment/prod/web@42',
      summary: 'Healthy → Degraded',
      detail:
        'caused by Deployment web: Deployment "web" exceeded its progress deadline',
      severity: 'error',
      links: [
        { object: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
      ],
    });
  });

  it('names the same root whatever the nodes’ order: the explaining kind, then the first id', () => {
    const roots = [
      node('/ConfigMap/prod/a', 'ConfigMap', 'Degraded', undefined),
      node('apps/StatefulSet/prod/z', 'StatefulSet', 'Degraded', undefined),
      node('apps/Deployment/prod/y', 'Deployment', 'Degraded', undefined),
      node('apps/Deployment/prod/x', 'Deployment', 'Degraded', undefined),
      ...nodes,
    ];
    for (const order of [roots, [...roots].reverse()])
      expect(healthCauseOf(order, 'Degraded')?.node.id).toBe(
        'apps/Deployment/prod/web',
      );
    expect(healthCauseOf(roots.slice(0, 3), 'Degraded')?.node.id).toBe(
      'apps/Deployment/prod/y',
    );
    expect(
      healthCauseOf(
        [
          roots[0],
          node('/ConfigMap/prod/0', 'ConfigMap', 'Degraded', undefined),
        ],
        'Degraded',
      )?.node.id,
    ).toBe('/ConfigMap/prod/0');
  });

  it('walks no tree parents while an object without one has the status', () => {
    // Asked on every environment's first state: the cause is nearly always
    // a root, and walking each pod's parents to learn so is what it spares.
    let parentsRead = 0;
    const replicaSet = Object.defineProperty(
      node('apps/ReplicaSet/prod/web-abc', 'ReplicaSet', 'Healthy', undefined),
      'parentId',
      {
        get: () => {
          parentsRead++;
          return 'apps/Deployment/prod/web';
        },
      },
    );
    const cause = healthCauseOf([nodes[0], replicaSet, nodes[2]], 'Degraded');
    expect(cause?.node.id).toBe('apps/Deployment/prod/web');
    expect(parentsRead).toBe(0);
  });

  it('without a root of that status, blames the one nearest a root, through cycles too', () => {
    const [pod, replicaSet] = nodes;
    expect(
      healthCauseOf(
        [pod, replicaSet, { ...nodes[2], health: { status: 'Healthy' } }],
        'Degraded',
      )?.node.id,
    ).toBe('apps/ReplicaSet/prod/web-abc');
    expect(healthCauseOf([pod], 'Degraded')?.node.id).toBe('/Pod/prod/web-1');
    const cycle = [
      node(
        '/ConfigMap/prod/b',
        'ConfigMap',
        'Degraded',
        undefined,
        '/ConfigMap/prod/a',
      ),
      node(
        '/ConfigMap/prod/a',
        'ConfigMap',
        'Degraded',
        undefined,
        '/ConfigMap/prod/b',
      ),
    ];
    expect(healthCauseOf(cycle, 'Degraded')?.node.id).toBe('/ConfigMap/prod/a');
    // Above z, a cycle of two (depth 2); above d, three parents (one not shown).
    const cm = (name: string, status: 'Healthy' | 'Degraded', parent: string) =>
      node(
        `/ConfigMap/prod/${name}`,
        'ConfigMap',
        status,
        undefined,
        `/ConfigMap/prod/${parent}`,
      );
    const chains = [
      cm('d', 'Degraded', 'e'),
      cm('e', 'Healthy', 'f'),
      cm('f', 'Healthy', 'g'),
      cm('z', 'Degraded', 'b'),
      cm('b', 'Healthy', 'c'),
      cm('c', 'Healthy', 'b'),
    ];
    expect(healthCauseOf(chains, 'Degraded')?.node.id).toBe(
      '/ConfigMap/prod/z',
    );
  });

  it('gives no cause when no object has the status', () => {
    expect(healthCauseOf(nodes, 'Missing')).toBeUndefined();
  });
});

describe('deploymentTimelineRecord', () => {
  it('records finished and running deployments, not created ones', () => {
    expect(
      deploymentTimelineRecord({
        iid: '212',
        status: 'success',
        ref: 'v3.8.2',
        sha: '5d6e7f80aa',
        finishedAt: '2026-03-01T09:00:00Z',
        webUrl: 'https://gitlab.example.com/d/212',
      }),
    ).toEqual({
      key: 'deployment:212:success',
      kind: 'deployment',
      at: '2026-03-01T09:00:00.000Z',
      summary: 'Deployment #212 deployed v3.8.2 (5d6e7f80)',
      links: [
        { label: 'Deployment #212', url: 'https://gitlab.example.com/d/212' },
      ],
    });
    expect(
      deploymentTimelineRecord({ iid: '213', status: 'created' }),
    ).toBeUndefined();
  });
});
