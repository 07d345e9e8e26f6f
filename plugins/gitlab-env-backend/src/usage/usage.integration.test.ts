import { EnvironmentUsageResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';

// Each test follows an environment live (its lists and watches) on a shared machine.
jest.setTimeout(30_000);

const entities = [
  component('checkout-api', {
    'gitlab.com/project-slug': 'acme/shop/checkout-api',
  }),
  component('storefront', {
    'gitlab.com/project-slug': 'acme/shop/storefront',
  }),
];

const usagePath = (entity: string, slug: string, query = '') =>
  `/api/gitlab-env/entity/default/component/${entity}/environments/${slug}/usage${query}`;

const metricsRequests = (simulator: RunningSimulator) =>
  Object.entries(simulator.stats().byPath)
    .filter(([path]) => path.includes('/apis/metrics.k8s.io/'))
    .reduce((sum, [, count]) => sum + count, 0);

describe('usage against the simulator (metrics-server and a kube-prometheus-stack Prometheus in prod-us)', () => {
  let simulator: RunningSimulator;
  let backend: Awaited<ReturnType<typeof startBackendOnSimulator>>;

  beforeAll(async () => {
    simulator = await startGitlabSimulator({ kasTunnels: TEST_KAS_TUNNELS });
    backend = await startBackendOnSimulator(simulator, { entities });
  });
  afterAll(async () => {
    await backend?.stop();
    await simulator?.close();
  });

  it('answers CPU and memory per pod and workload against requests and limits, one metrics read for a hundred viewers', async () => {
    simulator.resetStats();
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        request(backend.server).get(usagePath('checkout-api', 'production')),
      ),
    );
    expect(responses.every(r => r.status === 200)).toBe(true);
    expect(metricsRequests(simulator)).toBe(1);
    const body: EnvironmentUsageResponse = responses[0].body;
    expect(body.metrics).toEqual(
      expect.objectContaining({ available: true, window: '15s' }),
    );
    expect(body.kubectl).toBe('kubectl top pod -n checkout --containers');
    const measured = body.pods.filter(p => p.measured);
    expect(measured.length).toBeGreaterThan(0);
    expect(
      measured.every(p => (p.cpu.usage ?? 0) > 0 && (p.memory.usage ?? 0) > 0),
    ).toBe(true);
    const workload = body.workloads.find(
      w => w.kind === 'Deployment' && w.name === 'checkout-api',
    )!;
    expect(workload.pods).toBeGreaterThan(0);
    // checkout-api's containers set no requests: marked, not summed.
    expect(workload.cpu.request).toBeUndefined();
    expect(workload.cpu.requestMissing).toBe(true);
  });

  it("sums the containers' requests and limits where the specs set them", async () => {
    const list = await request(backend.server).get(
      '/api/gitlab-env/entity/default/component/storefront/environments',
    );
    const us = list.body.environments.find(
      (e: any) => e.name === 'production/us-region',
    );
    const body: EnvironmentUsageResponse = (
      await request(backend.server).get(usagePath('storefront', us.slug))
    ).body;
    const pod = body.pods.find(
      p => p.measured && p.workload?.name === 'storefront-web',
    )!;
    // requests: { cpu: 250m, memory: 256Mi }, limits: { memory: 512Mi }
    expect(pod.cpu).toEqual(
      expect.objectContaining({ request: 0.25, requestMissing: false }),
    );
    expect(pod.cpu.limit).toBeUndefined();
    expect(pod.memory).toEqual(
      expect.objectContaining({
        request: 256 * 2 ** 20,
        limit: 512 * 2 ** 20,
        overLimit: false,
      }),
    );
  });

  it("takes a workload's trend over hours from the Prometheus it finds in the cluster, with the query", async () => {
    const res = await request(backend.server).get(
      usagePath(
        'checkout-api',
        'production',
        '?workload=Deployment/checkout-api',
      ),
    );
    expect(res.status).toBe(200);
    const body: EnvironmentUsageResponse = res.body;
    expect(body.prometheus).toEqual({
      service: 'monitoring/kube-prometheus-stack-prometheus:http-web',
    });
    expect(body.trend?.source).toBe('prometheus');
    expect(body.trend?.queries?.cpu).toMatch(
      /^sum\(rate\(container_cpu_usage_seconds_total\{namespace="checkout",pod=~"checkout-api-/,
    );
    expect(body.trend!.points.length).toBeGreaterThan(100);
    expect(body.trend!.points.every(p => (p.cpu ?? 0) > 0)).toBe(true);
    expect(body.kubectl).toMatch(
      /^kubectl top pod -n checkout -l '.+' --containers$/,
    );
  });

  it('a cluster without Prometheus gives the trend sampled while viewed', async () => {
    const list = await request(backend.server).get(
      '/api/gitlab-env/entity/default/component/storefront/environments',
    );
    const eu = list.body.environments.find(
      (e: any) => e.name === 'production/eu-region',
    );
    const pods: EnvironmentUsageResponse = (
      await request(backend.server).get(usagePath('storefront', eu.slug))
    ).body;
    const pod = pods.pods.find(p => p.measured)!;
    const res = await request(backend.server).get(
      usagePath('storefront', eu.slug, `?pod=${pod.name}`),
    );
    expect(res.body.prometheus).toBeUndefined();
    expect(res.body.trend).toEqual({
      source: 'sampled',
      stepSeconds: 15,
      points: [expect.objectContaining({ cpu: expect.any(Number) })],
    });
    expect(res.body.kubectl).toBe(
      `kubectl top pod ${pod.name} -n storefront --containers`,
    );
  });

  it('says once, plainly, that a cluster has no metrics API', async () => {
    simulator.setClusterKnobs({ metricsApi: false });
    try {
      const res = await request(backend.server).get(
        usagePath('checkout-api', 'staging'),
      );
      expect(res.status).toBe(200);
      expect(res.body.metrics).toEqual({
        available: false,
        reason: expect.stringContaining('This cluster has no metrics API'),
      });
      expect(res.body.pods.length).toBeGreaterThan(0);
      expect(res.body.pods.every((p: any) => !p.measured)).toBe(true);
    } finally {
      simulator.setClusterKnobs({ metricsApi: true });
    }
  });
});
