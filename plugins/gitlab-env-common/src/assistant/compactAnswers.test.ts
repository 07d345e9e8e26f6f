import { buildResourceGraph, summarizeGraphHealth } from '../graph';
import { KubernetesObject, ResourceNode } from '../types';
import {
  resourcesNamed,
  resourceSummary,
  unhealthyResources,
} from './compactAnswers';

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

/** A Pod whose one container `app` waits in CrashLoopBackOff. */
function crashLoopingPod(
  metadata: ReturnType<typeof meta>,
  app: string,
  restartCount: number,
  message: string,
): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, labels: { app } },
    spec: { restartPolicy: 'Always', containers: [{ name: 'app' }] },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          ready: false,
          restartCount,
          state: { waiting: { reason: 'CrashLoopBackOff', message } },
        },
      ],
    },
  };
}

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
    (suffix): KubernetesObject =>
      crashLoopingPod(
        meta(`cart-6f7d-${suffix}`, { kind: 'ReplicaSet', name: 'cart-6f7d' }),
        'cart',
        7,
        'back-off 5m0s restarting failed container=app',
      ),
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
    // The ConfigMap carries no health: not counted as a status.
    expect(read().health.counts.none).toBeGreaterThan(0);
    expect(Object.keys(answer.counts)).not.toContain('none');
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

  it('caps the list and counts the rest, and pages from an offset', () => {
    const many = read();
    const limit = unhealthyResources(many, 0);
    expect(limit.unhealthy).toEqual([]);
    expect(limit.more).toBe(1);
    const later = unhealthyResources(many, 5, 1);
    expect(later.unhealthy).toEqual([]);
    expect(later.more).toBe(0);
    expect(unhealthyResources(many, 5, 0).unhealthy).toHaveLength(1);
  });

  it('finds a resource by the name answers give it, with or without its namespace', () => {
    const { graph } = read();
    const named = (text: string) =>
      resourcesNamed(graph.nodes, text, ns).map(n => `${n.kind} ${n.name}`);
    expect(named('Deployment/cart')).toEqual(['Deployment cart']);
    expect(named('deployment/shop/cart')).toEqual(['Deployment cart']);
    expect(named('Deployment/elsewhere/cart')).toEqual([]);
    expect(named('Pod/cart')).toEqual([]);
    expect(named('cart')).toEqual([]);
    expect(named('Deployment//cart')).toEqual([]);
  });

  it('finds a resource a Flux inventory names but the cluster lacks, unless the cluster holds one of that name', () => {
    const node = (namespace: string, missing?: boolean) =>
      ({
        id: `apps/Deployment/${namespace}/gone`,
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        namespace,
        name: 'gone',
        childIds: [],
        ...(missing && { missing: true }),
      } as ResourceNode);
    const where = (nodes: ResourceNode[]) =>
      resourcesNamed(nodes, 'Deployment/gone', ns).map(
        n => `${n.namespace}${n.missing ? ' missing' : ''}`,
      );
    expect(where([node(ns, true)])).toEqual([`${ns} missing`]);
    expect(where([node(ns, true), node('other')])).toEqual(['other']);
  });

  it('prefers the environment namespace when a name is in several, and returns all when none is there', () => {
    const twice = buildResourceGraph([
      ...objects,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'cart', namespace: 'other', uid: 'uid-other-cart' },
        spec: {},
      },
    ]);
    const where = (text: string, namespace: string) =>
      resourcesNamed(twice.nodes, text, namespace).map(n => n.namespace);
    expect(where('Deployment/cart', ns)).toEqual([ns]);
    expect(where('Deployment/cart', 'third').sort()).toEqual(['other', ns]);
  });

  it('summarizes one resource: health, a line of facts, conditions, latest events, owner and what it owns', () => {
    const { graph } = read();
    const pod = graph.nodes.find(n => n.name === 'cart-6f7d-a')!;
    const summary = resourceSummary(pod, graph, objects, ns);
    expect(summary).toEqual(
      expect.objectContaining({
        resource: 'Pod/cart-6f7d-a',
        apiVersion: 'v1',
        status: 'Degraded',
        capabilities: ['pod.logs', 'pod.delete'],
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
        apiVersion: 'apps/v1',
        capabilities: [
          'workload.restart',
          'workload.scale',
          'workload.rollback',
        ],
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

  it('says why the environment does not act on a resource', () => {
    const graph = buildResourceGraph(objects, {
      readOnly: key =>
        key.kind === 'ConfigMap' ? 'Another team’s object.' : undefined,
    });
    const config = graph.nodes.find(n => n.kind === 'ConfigMap')!;
    expect(resourceSummary(config, graph, objects, ns)).toEqual(
      expect.objectContaining({
        readOnly: 'Another team’s object.',
        capabilities: [],
      }),
    );
  });

  it('keeps an answer under 8 KB however many and long the messages, the rest counted', () => {
    const long = 'y'.repeat(2000);
    const crashing = Array.from({ length: 40 }, (_, i) =>
      crashLoopingPod(meta(`lone-${i}`), 'lone', 3, long),
    );
    const events: KubernetesObject[] = Array.from({ length: 30 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `lone-0.${i}`, namespace: ns },
      involvedObject: {
        kind: 'Pod',
        name: 'lone-0',
        namespace: ns,
        uid: 'uid-lone-0',
      },
      type: 'Warning',
      reason: 'BackOff',
      message: long,
      count: i + 1,
      lastTimestamp: `2026-11-26T10:${String(i).padStart(2, '0')}:00Z`,
    }));
    const all = [...crashing, ...events];
    const graph = buildResourceGraph(all);
    const size = (value: unknown) =>
      new TextEncoder().encode(JSON.stringify(value)).length;
    const answer = unhealthyResources(
      {
        environment: { name: 'production', namespace: ns } as any,
        graph,
        resources: all,
        health: summarizeGraphHealth(graph),
        errors: [],
      },
      30,
    );
    expect(size(answer)).toBeLessThan(8 * 1024);
    expect(answer.unhealthy.length).toBeGreaterThan(0);
    expect(answer.unhealthy.length + answer.more).toBe(40);

    const pod = graph.nodes.find(n => n.name === 'lone-0')!;
    const summary = resourceSummary(pod, graph, all, ns, 30);
    expect(size(summary)).toBeLessThan(8 * 1024);
    expect(summary.events.length).toBeGreaterThan(0);
    expect(summary.events.length + summary.moreEvents).toBe(30);
    // Newest first.
    expect(summary.events[0].count).toBe(30);
  });
});
