import { buildResourceGraph, summarizeGraphHealth } from '../graph';
import { KubernetesObject } from '../types';
import { resourceSummary, unhealthyResources } from './compactAnswers';

const ns = 'shop';
const meta = (name: string, owner?: { kind: string; name: string }) => ({
  name,
  namespace: ns,
  uid: `uid-${name}`,
  ownerReferences: owner
    ? [
        {
          ...owner,
          uid: `uid-${owner.name}`,
          controller: true,
          apiVersion: 'apps/v1',
        },
      ]
    : undefined,
});

const objects: KubernetesObject[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { ...meta('cart'), generation: 2 },
    spec: { replicas: 2, selector: { matchLabels: { app: 'cart' } } },
    status: {
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 0,
      availableReplicas: 0,
      conditions: [
        {
          type: 'Available',
          status: 'False',
          reason: 'MinimumReplicasUnavailable',
          message: 'Deployment does not have minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'ReplicaSet "cart-6f7d" has timed out progressing.',
        },
      ],
    },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('cart-6f7d', { kind: 'Deployment', name: 'cart' }),
    spec: { replicas: 2 },
    status: { replicas: 2, readyReplicas: 0 },
  },
  ...['a', 'b'].map(
    (suffix): KubernetesObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...meta(`cart-6f7d-${suffix}`, {
          kind: 'ReplicaSet',
          name: 'cart-6f7d',
        }),
        labels: { app: 'cart' },
      },
      spec: { restartPolicy: 'Always', containers: [{ name: 'app' }] },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 7,
            state: {
              waiting: {
                reason: 'CrashLoopBackOff',
                message: 'back-off 5m0s restarting failed container=app',
              },
            },
          },
        ],
      },
    }),
  ),
  {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'cart-6f7d-a.1', namespace: ns },
    involvedObject: {
      kind: 'Pod',
      name: 'cart-6f7d-a',
      namespace: ns,
      uid: 'uid-cart-6f7d-a',
    },
    type: 'Warning',
    reason: 'BackOff',
    message: 'Back-off restarting failed container app in pod cart-6f7d-a',
    count: 42,
    lastTimestamp: '2026-11-26T10:00:00Z',
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta('cart-config'),
    data: { a: 'b' },
  },
];

function read() {
  const graph = buildResourceGraph(objects);
  return {
    environment: { name: 'production', namespace: ns } as any,
    graph,
    resources: objects,
    health: summarizeGraphHealth(graph),
    errors: [],
  };
}

describe('answers for assistants', () => {
  it('names an unhealthy chain once, at its top, with the likely cause below it and its latest warning', () => {
    const answer = unhealthyResources(read());
    expect(answer.health).toBe('Degraded');
    expect(answer.unhealthy).toEqual([
      {
        resource: 'Deployment/cart',
        status: 'Degraded',
        message: 'Deployment "cart" exceeded its progress deadline',
        likelyCause: {
          resource: 'Pod/cart-6f7d-a',
          status: 'Degraded',
          message: 'back-off 5m0s restarting failed container=app',
          event: {
            reason: 'BackOff',
            message:
              'Back-off restarting failed container app in pod cart-6f7d-a',
            count: 42,
          },
        },
      },
    ]);
    expect(answer.more).toBe(0);
  });

  it('caps the list and counts the rest', () => {
    const many = read();
    const limit = unhealthyResources(many, 0);
    expect(limit.unhealthy).toEqual([]);
    expect(limit.more).toBe(1);
  });

  it('summarizes one resource: health, a line of facts, conditions, latest events, owner and what it owns', () => {
    const { graph } = read();
    const pod = graph.nodes.find(n => n.name === 'cart-6f7d-a')!;
    const summary = resourceSummary(pod, graph, objects, ns);
    expect(summary).toEqual(
      expect.objectContaining({
        resource: 'Pod/cart-6f7d-a',
        status: 'Degraded',
        facts: { phase: 'Running', restarts: 7 },
        owner: 'ReplicaSet/cart-6f7d',
        owns: [],
        events: [
          expect.objectContaining({
            reason: 'BackOff',
            count: 42,
            type: 'Warning',
          }),
        ],
      }),
    );
    const deployment = graph.nodes.find(n => n.name === 'cart')!;
    expect(resourceSummary(deployment, graph, objects, ns)).toEqual(
      expect.objectContaining({
        facts: { replicas: 2, readyReplicas: 0 },
        owns: ['ReplicaSet/cart-6f7d'],
        conditions: [
          expect.objectContaining({ type: 'Available', status: 'False' }),
          expect.objectContaining({
            type: 'Progressing',
            reason: 'ProgressDeadlineExceeded',
          }),
        ],
      }),
    );
  });
});
