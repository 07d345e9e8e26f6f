import { kasJson, PROD_US, useSimulator } from '../testing/harness';

const PROMETHEUS =
  '/api/v1/namespaces/monitoring/services/kube-prometheus-stack-prometheus:http-web/proxy';

describe("the API server's service proxy to the cluster's Prometheus, through KAS", () => {
  const sim = useSimulator({ tickMs: 0 });
  afterEach(() => sim().setFaults({ forbiddenKinds: [] }));

  const query = (path: string, params: Record<string, string | number>) =>
    kasJson(
      sim(),
      PROD_US,
      `${PROMETHEUS}${path}?${new URLSearchParams(
        Object.entries(params).map(([k, v]) => [k, String(v)]),
      )}`,
    );

  it('lists services/proxy in discovery and finds the kube-prometheus-stack Service by its label', async () => {
    const core = (await kasJson(sim(), PROD_US, '/api/v1')).body.resources;
    expect(core.find((r: any) => r.name === 'services/proxy')).toMatchObject({
      kind: 'ServiceProxyOptions',
      verbs: ['create', 'delete', 'get', 'patch', 'update'],
    });
    const found = (
      await kasJson(
        sim(),
        PROD_US,
        '/api/v1/services?labelSelector=app%3Dkube-prometheus-stack-prometheus',
      )
    ).body.items;
    expect(
      found.map((s: any) => [
        s.metadata.namespace,
        s.metadata.name,
        s.spec.ports[0],
      ]),
    ).toEqual([
      [
        'monitoring',
        'kube-prometheus-stack-prometheus',
        expect.objectContaining({ name: 'http-web', port: 9090 }),
      ],
    ]);
    const build = await query('/api/v1/status/buildinfo', {});
    expect(build.body).toMatchObject({
      status: 'success',
      data: { version: '2.54.1' },
    });
  });

  it('answers the same usage as the metrics API, per container and per pod', async () => {
    const metrics = (
      await kasJson(
        sim(),
        PROD_US,
        '/apis/metrics.k8s.io/v1beta1/namespaces/checkout/pods',
      )
    ).body.items;
    const at = Date.parse(metrics[0].timestamp) / 1000;
    const memory = await query('/api/v1/query', {
      query:
        'container_memory_working_set_bytes{namespace="checkout", container!=""}',
      time: at,
    });
    expect(memory.body.data.resultType).toBe('vector');
    const fromPrometheus = Object.fromEntries(
      memory.body.data.result.map((r: any) => [
        `${r.metric.pod}/${r.metric.container}`,
        Number(r.value[1]),
      ]),
    );
    const fromMetricsApi = Object.fromEntries(
      metrics.flatMap((m: any) =>
        m.containers.map((c: any) => [
          `${m.metadata.name}/${c.name}`,
          Number(c.usage.memory.slice(0, -2)) * 1024,
        ]),
      ),
    );
    expect(fromPrometheus).toEqual(fromMetricsApi);
    const cpu = await query('/api/v1/query', {
      query:
        'sum by (pod) (irate(container_cpu_usage_seconds_total{namespace="checkout", container!=""}[1m]))',
      time: at,
    });
    for (const r of cpu.body.data.result) {
      const pod = metrics.find((m: any) => m.metadata.name === r.metric.pod);
      const nanocores = pod.containers.reduce(
        (n: number, c: any) => n + Number(c.usage.cpu.slice(0, -1)),
        0,
      );
      expect(Number(r.value[1])).toBeCloseTo(nanocores / 1e9, 9);
      expect(Object.keys(r.metric)).toEqual(['pod']);
    }
    // The pod-level cgroup series is why trend queries say container!="".
    const counted = await query('/api/v1/query', {
      query:
        'count by (pod) (container_memory_working_set_bytes{namespace="checkout"})',
      time: at,
    });
    expect(counted.body.data.result.map((r: any) => r.value[1])).toEqual([
      '3',
      '3',
    ]);
  });

  it('answers range queries with a matrix of [time, value] points, a rate needing two samples', async () => {
    const end = Math.floor(Date.now() / 1000);
    const range = await query('/api/v1/query_range', {
      query:
        'sum by (namespace) (rate(container_cpu_usage_seconds_total{namespace=~"checkout|storefront", container!=""}[5m]))',
      start: end - 3600,
      end,
      step: '5m',
    });
    expect(range.status).toBe(200);
    expect(range.body.data.resultType).toBe('matrix');
    const series = range.body.data.result;
    expect(series.map((s: any) => s.metric.namespace).sort()).toEqual([
      'checkout',
      'storefront',
    ]);
    for (const s of series) {
      expect(s.values).toHaveLength(13);
      expect(s.values[1][0] - s.values[0][0]).toBe(300);
      expect(Number(s.values[0][1])).toBeGreaterThan(0);
    }
    const tooShort = await query('/api/v1/query', {
      query:
        'rate(container_cpu_usage_seconds_total{namespace="checkout"}[10s])',
    });
    expect(tooShort.body.data.result).toEqual([]);
    const unknown = await query('/api/v1/query', {
      query: 'kube_pod_info{namespace="checkout"}',
    });
    expect(unknown.body).toEqual({
      status: 'success',
      data: { resultType: 'vector', result: [] },
    });
  });

  it.each([
    [{ query: 'up + 1' }, /^1:4: parse error: unexpected character: '\+'/],
    [
      { query: 'container_cpu_usage_seconds_total' },
      /counter: the simulated Prometheus evaluates it only inside rate\(\)/,
    ],
    [
      {
        query: 'container_memory_working_set_bytes',
        start: 10,
        end: 5,
        step: 1,
      },
      /end timestamp must not be before start time/,
    ],
    [
      {
        query: 'container_memory_working_set_bytes',
        start: 0,
        end: 5,
        step: 0,
      },
      /zero or negative query resolution step widths are not accepted/,
    ],
    [
      {
        query: 'container_memory_working_set_bytes',
        start: 0,
        end: 20000,
        step: 1,
      },
      /exceeded maximum resolution of 11,000 points per timeseries/,
    ],
    [
      {
        query: 'container_memory_working_set_bytes',
        start: 'yesterday',
        end: 5,
        step: 1,
      },
      /invalid parameter "start": cannot parse "yesterday" to a valid timestamp/,
    ],
  ])(
    'refuses %j with Prometheus’s 400 bad_data shape',
    async (params, error) => {
      const path = 'start' in params ? '/api/v1/query_range' : '/api/v1/query';
      const refused = await query(path, params as any);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        status: 'error',
        errorType: 'bad_data',
        error: expect.stringMatching(error),
      });
    },
  );

  it('takes a POSTed form, as Prometheus clients send long queries', async () => {
    const response = await kasJson(
      sim(),
      PROD_US,
      `${PROMETHEUS}/api/v1/query`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          query:
            'sum(container_memory_working_set_bytes{namespace="checkout",container!=""})',
        }).toString(),
      },
    );
    expect(response.status).toBe(200);
    expect(Number(response.body.data.result[0].value[1])).toBeGreaterThan(0);
  });

  it('answers as the API server when the proxy cannot reach a server: RBAC, unknown service, port, or no server', async () => {
    const missing = await kasJson(
      sim(),
      PROD_US,
      '/api/v1/namespaces/monitoring/services/nope:9090/proxy/api/v1/query',
    );
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('services "nope" not found');
    const badPort = await kasJson(
      sim(),
      PROD_US,
      '/api/v1/namespaces/monitoring/services/kube-prometheus-stack-prometheus:9999/proxy/',
    );
    expect(badPort.status).toBe(503);
    expect(badPort.body.message).toBe(
      'no endpoints available for service "kube-prometheus-stack-prometheus:9999"',
    );
    const app = await kasJson(
      sim(),
      PROD_US,
      '/api/v1/namespaces/storefront/services/storefront-web:http/proxy/',
    );
    expect(app.status).toBe(503);
    expect(app.body.message).toMatch(/^error trying to reach service: /);
    sim().setFaults({ forbiddenKinds: ['services/proxy'] });
    const refused = await query('/api/v1/query', { query: 'up' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'services "kube-prometheus-stack-prometheus" is forbidden: User "system:serviceaccount:gitlab-agent:gitlab-agent" cannot get resource "services/proxy" in API group "" in the namespace "monitoring"',
    );
  });
});
