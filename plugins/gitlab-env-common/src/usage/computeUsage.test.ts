import { topPods } from '@kubernetes/client-node';
import { KubernetesObject } from '../types';
import { computeUsage, kubectlTop, workloadSelector } from './computeUsage';
import { PodMetricsObject } from './types';

const ns = 'checkout';

function pod(
  name: string,
  owner: { kind: string; name: string },
  containers: Array<{ name: string; requests?: object; limits?: object }>,
): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      ownerReferences: [{ ...owner, controller: true, apiVersion: 'apps/v1' }],
    },
    spec: {
      containers: containers.map(c => ({
        name: c.name,
        resources: { requests: c.requests, limits: c.limits },
      })),
    },
    status: { phase: 'Running' },
  };
}

const deployment: KubernetesObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: ns },
  spec: { selector: { matchLabels: { app: 'api', tier: 'web' } } },
};
const replicaSet: KubernetesObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: 'api-7d9f',
    namespace: ns,
    ownerReferences: [{ kind: 'Deployment', name: 'api', controller: true }],
  },
};

const withLimits = {
  requests: { cpu: '100m', memory: '128Mi' },
  limits: { cpu: '500m', memory: '256Mi' },
};
const pods = [
  pod('api-7d9f-a', { kind: 'ReplicaSet', name: 'api-7d9f' }, [
    { name: 'api', ...withLimits },
    // a sidecar without requests or limits
    { name: 'envoy' },
  ]),
  pod('api-7d9f-b', { kind: 'ReplicaSet', name: 'api-7d9f' }, [
    { name: 'api', ...withLimits },
    { name: 'envoy' },
  ]),
  // no metrics yet: just started
  pod('api-7d9f-c', { kind: 'ReplicaSet', name: 'api-7d9f' }, [
    { name: 'api', ...withLimits },
    { name: 'envoy' },
  ]),
  pod('worker-0', { kind: 'StatefulSet', name: 'worker' }, [
    { name: 'worker', requests: { cpu: '1', memory: '1Gi' } },
  ]),
];

const metrics: PodMetricsObject[] = [
  {
    metadata: { name: 'api-7d9f-a', namespace: ns },
    timestamp: '2026-11-26T10:00:00Z',
    window: '15s',
    containers: [
      { name: 'api', usage: { cpu: '612345678n', memory: '200000Ki' } },
      { name: 'envoy', usage: { cpu: '3m', memory: '20Mi' } },
    ],
  },
  {
    metadata: { name: 'api-7d9f-b', namespace: ns },
    containers: [
      { name: 'api', usage: { cpu: '50m', memory: '100Mi' } },
      { name: 'envoy', usage: { cpu: '2m', memory: '10Mi' } },
    ],
  },
  {
    metadata: { name: 'worker-0', namespace: ns },
    containers: [{ name: 'worker', usage: { cpu: '250m', memory: '512Mi' } }],
  },
];

describe('computeUsage', () => {
  const result = computeUsage({
    pods,
    owners: [deployment, replicaSet],
    metrics,
  });

  it("sums a pod's containers against their requests and limits, and marks over limit and missing requests", () => {
    const a = result.pods.find(p => p.name === 'api-7d9f-a')!;
    expect(a.workload).toEqual({
      kind: 'Deployment',
      namespace: ns,
      name: 'api',
    });
    expect(a.cpu).toEqual({
      usage: expect.closeTo(0.615345678, 9),
      request: 0.1,
      limit: 0.5,
      overLimit: true,
      requestMissing: true,
    });
    expect(a.memory.usage).toBe(200000 * 1024 + 20 * 2 ** 20);
    expect(a.memory.overLimit).toBe(false);
    expect(a.containers.map(c => [c.name, c.cpu.overLimit])).toEqual([
      ['api', true],
      ['envoy', false],
    ]);
  });

  it('keeps a pod metrics.k8s.io has not measured, with its requests and no usage', () => {
    const c = result.pods.find(p => p.name === 'api-7d9f-c')!;
    expect(c.measured).toBe(false);
    expect(c.cpu).toEqual({
      usage: undefined,
      request: 0.1,
      limit: 0.5,
      overLimit: false,
      requestMissing: true,
    });
  });

  it('sums workloads over their pods: a ReplicaSet counts for its Deployment', () => {
    expect(
      result.workloads.map(w => [
        w.kind,
        w.name,
        w.pods,
        w.measuredPods,
        w.cpu.request,
        w.cpu.overLimit,
        w.memory.requestMissing,
      ]),
    ).toEqual([
      ['Deployment', 'api', 3, 2, expect.closeTo(0.3, 9), true, true],
      ['StatefulSet', 'worker', 1, 1, 1, false, false],
    ]);
    expect(result.workloads[1].cpu.limit).toBeUndefined();
  });

  it("agrees with @kubernetes/client-node's topPods on usage and CPU requests and limits", async () => {
    const theirs = await topPods(
      { listNamespacedPod: async () => ({ items: pods }) } as any,
      { getPodMetrics: async () => ({ items: metrics }) } as any,
      ns,
    );
    for (const status of theirs) {
      const ours = result.pods.find(p => p.name === status.Pod.metadata!.name)!;
      expect(ours.cpu.usage ?? 0).toBeCloseTo(
        Number(status.CPU.CurrentUsage),
        9,
      );
      expect(ours.memory.usage ?? 0).toBe(Number(status.Memory.CurrentUsage));
      expect(ours.cpu.request).toBeCloseTo(Number(status.CPU.RequestTotal), 9);
      expect(ours.cpu.limit ?? 0).toBeCloseTo(Number(status.CPU.LimitTotal), 9);
      // client-node 1.4.0 sums memory requests into the limits' running
      // total (podRequestsMem = add(podLimitsMem, …)): not compared.
    }
  });

  it('says the kubectl command that shows the same', () => {
    expect(kubectlTop({ namespace: ns, pod: 'api-7d9f-a' })).toBe(
      'kubectl top pod api-7d9f-a -n checkout --containers',
    );
    expect(
      kubectlTop({
        namespace: ns,
        labelSelector: workloadSelector(deployment),
      }),
    ).toBe("kubectl top pod -n checkout -l 'app=api,tier=web' --containers");
  });
});
