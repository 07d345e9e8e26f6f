import { mockServices } from '@backstage/backend-test-utils';
import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { http, HttpResponse } from 'msw';
import { kasOnMsw, MSW_KAS } from '../__testUtils__/kasOnMsw';
import { appEntity } from '../__testUtils__/serviceFixture';
import { EnvironmentUsage, UsageSettings } from './environmentUsage';
import { UsageSampler } from './UsageSampler';

const ns = 'shop';
const METRICS = `${MSW_KAS}/apis/metrics.k8s.io/v1beta1/namespaces/${ns}/pods`;
const PROM_SERVICE = `${MSW_KAS}/api/v1/namespaces/monitoring/services/kube-prometheus-stack-prometheus`;
const PROM_PROXY = `${PROM_SERVICE}:http-web/proxy`;

const settings: UsageSettings = {
  intervalMs: 15_000,
  keepSamples: 40,
  graceMs: 60_000,
  prometheus: { enabled: true, rangeSeconds: 3 * 3600, stepSeconds: 60 },
};

function podObject(name: string, cpuLimit?: string): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      ownerReferences: [
        { kind: 'ReplicaSet', name: 'web-5f6', controller: true },
      ],
    },
    spec: {
      containers: [
        {
          name: 'web',
          resources: cpuLimit
            ? {
                requests: { cpu: '100m', memory: '64Mi' },
                limits: { cpu: cpuLimit },
              }
            : {},
        },
      ],
    },
  };
}

const objects: KubernetesObject[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns },
    spec: { selector: { matchLabels: { app: 'web' } } },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'web-5f6',
      namespace: ns,
      ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }],
    },
  },
  podObject('web-5f6-a', '200m'),
  podObject('web-5f6-b'),
];

const podMetrics = {
  kind: 'PodMetricsList',
  apiVersion: 'metrics.k8s.io/v1beta1',
  items: [
    {
      metadata: { name: 'web-5f6-a', namespace: ns },
      timestamp: '2026-11-26T10:00:00Z',
      window: '15s',
      containers: [
        { name: 'web', usage: { cpu: '250000000n', memory: '51200Ki' } },
      ],
    },
    {
      metadata: { name: 'web-5f6-b', namespace: ns },
      timestamp: '2026-11-26T10:00:00Z',
      window: '15s',
      containers: [{ name: 'web', usage: { cpu: '10m', memory: '20Mi' } }],
    },
  ],
};

const notFound = () =>
  HttpResponse.json(
    {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
    },
    { status: 404 },
  );

describe('EnvironmentUsage (KAS on msw)', () => {
  const { server, kas } = kasOnMsw();
  const counts = { metrics: 0, queryRange: 0 };
  let sampler: UsageSampler;

  function usage() {
    sampler = new UsageSampler(settings, mockServices.logger.mock());
    const live = {
      agentKey: 'gitlab.test|7',
      labelSelector: 'app=web',
      environment: { namespace: ns, agent: { id: '7', name: 'prod' } },
      access: { via: 'kas', kas: () => kas },
    };
    return new EnvironmentUsage(
      { locateLive: async () => live as any },
      {
        follow: async () => ({
          environment: { snapshot: () => ({ resources: objects }) } as any,
          release: () => {},
        }),
      },
      settings,
      sampler,
    );
  }

  beforeEach(() => {
    counts.metrics = 0;
    counts.queryRange = 0;
  });
  afterEach(() => sampler?.close());

  const metricsHandler = (answer: () => Response) =>
    http.get(METRICS, ({ request }) => {
      counts.metrics += 1;
      expect(new URL(request.url).searchParams.get('labelSelector')).toBe(
        'app=web',
      );
      return answer();
    });
  const noPrometheus = [
    http.get(
      `${MSW_KAS}/api/v1/namespaces/monitoring/services/:name`,
      notFound,
    ),
    http.get(`${MSW_KAS}/api/v1/services`, () =>
      HttpResponse.json({ kind: 'ServiceList', items: [] }),
    ),
  ];

  it('answers a hundred viewers from one metrics.k8s.io read, per pod and workload against requests and limits', async () => {
    server.use(
      metricsHandler(() => HttpResponse.json(podMetrics)),
      ...noPrometheus,
    );
    const u = usage();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => u.usage(appEntity, 'production', {})),
    );
    expect(counts.metrics).toBe(1);
    const [answer] = answers;
    expect(answer.metrics).toEqual({
      available: true,
      window: '15s',
      timestamp: '2026-11-26T10:00:00Z',
    });
    expect(answer.kubectl).toBe(
      "kubectl top pod -n shop -l 'app=web' --containers",
    );
    const a = answer.pods.find(p => p.name === 'web-5f6-a')!;
    expect([a.cpu.usage, a.cpu.limit, a.cpu.overLimit]).toEqual([
      0.25,
      0.2,
      true,
    ]);
    const b = answer.pods.find(p => p.name === 'web-5f6-b')!;
    expect([b.cpu.requestMissing, b.memory.requestMissing]).toEqual([
      true,
      true,
    ]);
    expect(answer.workloads).toEqual([
      expect.objectContaining({
        kind: 'Deployment',
        name: 'web',
        pods: 2,
        measuredPods: 2,
        cpu: expect.objectContaining({ overLimit: true, requestMissing: true }),
      }),
    ]);
  });

  it('says once, plainly, that the cluster has no metrics API', async () => {
    server.use(
      metricsHandler(
        () => new HttpResponse('404 page not found', { status: 404 }),
      ),
    );
    const answer = await usage().usage(appEntity, 'production', {
      pod: 'web-5f6-a',
    });
    expect(answer.metrics).toEqual({
      available: false,
      reason: expect.stringContaining(
        'This cluster has no metrics API (metrics.k8s.io)',
      ),
    });
    expect(answer.trend).toBeUndefined();
    // Requests and limits still show.
    expect(answer.pods.find(p => p.name === 'web-5f6-a')!.cpu.limit).toBe(0.2);
  });

  it("names RBAC when the cluster refuses the agent's metrics read", async () => {
    server.use(
      metricsHandler(() =>
        HttpResponse.json(
          {
            kind: 'Status',
            reason: 'Forbidden',
            code: 403,
            message: 'forbidden',
          },
          { status: 403 },
        ),
      ),
    );
    const answer = await usage().usage(appEntity, 'production', {});
    expect(answer.metrics).toEqual({
      available: false,
      reason: expect.stringContaining(
        'RBAC does not let agent prod read pods.metrics.k8s.io',
      ),
    });
  });

  it("without a Prometheus, a workload's trend is what was sampled while viewed", async () => {
    server.use(
      metricsHandler(() => HttpResponse.json(podMetrics)),
      ...noPrometheus,
    );
    const answer = await usage().usage(appEntity, 'production', {
      workload: 'Deployment/web',
    });
    expect(answer.trend).toEqual({
      source: 'sampled',
      stepSeconds: 15,
      points: [
        {
          at: expect.any(String),
          cpu: expect.closeTo(0.26, 9),
          memory: 51200 * 1024 + 20 * 2 ** 20,
        },
      ],
    });
    expect(answer.kubectl).toBe(
      "kubectl top pod -n shop -l 'app=web' --containers",
    );
  });

  it('finds a Prometheus in the cluster and takes the trend over hours from PromQL through the service proxy, once for every viewer', async () => {
    const queries: string[] = [];
    server.use(
      metricsHandler(() => HttpResponse.json(podMetrics)),
      http.get(PROM_SERVICE, () =>
        HttpResponse.json({
          kind: 'Service',
          metadata: {
            name: 'kube-prometheus-stack-prometheus',
            namespace: 'monitoring',
          },
          spec: {
            ports: [
              { name: 'http-web', port: 9090 },
              { name: 'reloader-web', port: 8080 },
            ],
          },
        }),
      ),
      http.get(
        `${MSW_KAS}/api/v1/namespaces/monitoring/services/prometheus-k8s`,
        notFound,
      ),
      http.get(`${MSW_KAS}/api/v1/services`, () =>
        HttpResponse.json({ kind: 'ServiceList', items: [] }),
      ),
      http.get(`${PROM_PROXY}/api/v1/status/buildinfo`, () =>
        HttpResponse.json({ status: 'success', data: { version: '2.54.1' } }),
      ),
      http.get(`${PROM_PROXY}/api/v1/query_range`, ({ request }) => {
        counts.queryRange += 1;
        const query = new URL(request.url).searchParams.get('query')!;
        queries.push(query);
        const value = query.includes('cpu') ? '0.25' : '52428800';
        return HttpResponse.json({
          status: 'success',
          data: {
            resultType: 'matrix',
            result: [
              {
                metric: {},
                values: [
                  [1764150000, value],
                  [1764150060, value],
                ],
              },
            ],
          },
        });
      }),
    );
    const u = usage();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        u.usage(appEntity, 'production', { pod: 'web-5f6-a' }),
      ),
    );
    expect(counts.queryRange).toBe(2);
    expect(answers[99].trend).toEqual({
      source: 'prometheus',
      stepSeconds: 60,
      prometheus: 'monitoring/kube-prometheus-stack-prometheus:http-web',
      queries: {
        cpu: 'sum(rate(container_cpu_usage_seconds_total{namespace="shop",pod="web-5f6-a",container!="",container!="POD"}[5m]))',
        memory:
          'sum(container_memory_working_set_bytes{namespace="shop",pod="web-5f6-a",container!="",container!="POD"})',
      },
      points: [
        { at: '2025-11-26T09:40:00.000Z', cpu: 0.25, memory: 52428800 },
        { at: '2025-11-26T09:41:00.000Z', cpu: 0.25, memory: 52428800 },
      ],
    });
    expect(answers[0].kubectl).toBe(
      'kubectl top pod web-5f6-a -n shop --containers',
    );
  });

  it('refuses a target that is not a pod or Kind/name', async () => {
    await expect(
      usage().usage(appEntity, 'production', { workload: 'web' }),
    ).rejects.toThrow('workload must be <Kind>/<name>');
    await expect(
      usage().usage(appEntity, 'production', { pod: '../x' }),
    ).rejects.toThrow('pod must be a pod name');
  });
});
