import {
  kasJson,
  NONPROD,
  PROD_US,
  PROD_EU,
  useSimulator,
} from '../testing/harness';
import { SAMPLE_MS } from '../cluster/usage';
import { loadDefaultScenario } from '../scenario/load';

const AGGREGATED =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const PODS = '/apis/metrics.k8s.io/v1beta1/namespaces/storefront/pods';

describe('metrics.k8s.io (metrics-server through the aggregation layer)', () => {
  const scenario = loadDefaultScenario();
  const sim = useSimulator({
    tickMs: 0,
    scenario: {
      ...scenario,
      // A cluster without metrics-server.
      agents: scenario.agents.map(a =>
        a.name === 'prod-eu' ? { ...a, metricsServer: false } : a,
      ),
    },
  });
  afterEach(() => {
    sim().setClusterKnobs({ metricsApi: true });
    sim().setFaults({ forbiddenKinds: [] });
  });

  it('is discovered: the group, its resources (get and list only) and aggregated discovery', async () => {
    const groups = (await kasJson(sim(), PROD_US, '/apis')).body.groups;
    expect(groups.find((g: any) => g.name === 'metrics.k8s.io')).toEqual({
      name: 'metrics.k8s.io',
      versions: [
        { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' },
      ],
      preferredVersion: {
        groupVersion: 'metrics.k8s.io/v1beta1',
        version: 'v1beta1',
      },
    });
    const list = (await kasJson(sim(), PROD_US, '/apis/metrics.k8s.io/v1beta1'))
      .body;
    expect(
      list.resources.map((r: any) => [r.name, r.kind, r.namespaced, r.verbs]),
    ).toEqual([
      ['nodes', 'NodeMetrics', false, ['get', 'list']],
      ['pods', 'PodMetrics', true, ['get', 'list']],
    ]);
    const aggregated = (
      await kasJson(sim(), PROD_US, '/apis', {
        headers: { Accept: AGGREGATED },
      })
    ).body;
    expect(
      aggregated.items.some((g: any) => g.metadata.name === 'metrics.k8s.io'),
    ).toBe(true);
  });

  it('lists PodMetrics of running pods with per-container usage in nanocores and KiB, at a 15 s sample', async () => {
    const { status, body } = await kasJson(sim(), PROD_US, PODS);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      kind: 'PodMetricsList',
      apiVersion: 'metrics.k8s.io/v1beta1',
    });
    const pods = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
    ).body.items;
    expect(body.items.map((m: any) => m.metadata.name).sort()).toEqual(
      pods.map((p: any) => p.metadata.name).sort(),
    );
    const [first] = body.items;
    expect(first.window).toBe('15s');
    expect(Date.parse(first.timestamp) % SAMPLE_MS).toBe(0);
    expect(first.metadata.labels['app.kubernetes.io/name']).toBe(
      'storefront-web',
    );
    expect(first.containers).toEqual([
      {
        name: 'web',
        usage: {
          cpu: expect.stringMatching(/^\d+n$/),
          memory: expect.stringMatching(/^\d+Ki$/),
        },
      },
    ]);
  });

  it('filters by label and field selector, gets one pod, and 404s for a pod without metrics', async () => {
    const none = await kasJson(
      sim(),
      PROD_US,
      `${PODS}?labelSelector=app.kubernetes.io/name%3Dnothing`,
    );
    expect(none.body.items).toEqual([]);
    const all = (await kasJson(sim(), PROD_US, PODS)).body.items;
    const name = all[0].metadata.name;
    const byName = await kasJson(
      sim(),
      PROD_US,
      `${PODS}?fieldSelector=metadata.name%3D${name}`,
    );
    expect(byName.body.items.map((m: any) => m.metadata.name)).toEqual([name]);
    const one = await kasJson(sim(), PROD_US, `${PODS}/${name}`);
    expect(one.body).toMatchObject({
      kind: 'PodMetrics',
      metadata: { name, namespace: 'storefront' },
    });
    const missing = await kasJson(sim(), PROD_US, `${PODS}/no-such-pod`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(
      'pods "storefront/no-such-pod" not found',
    );
    // A pod metrics-server has no sample of (finished, pending, just started).
    const pending = (
      await kasJson(
        sim(),
        PROD_US,
        '/api/v1/pods?fieldSelector=status.phase%3DSucceeded',
      )
    ).body.items[0];
    const unmeasured = await kasJson(
      sim(),
      PROD_US,
      `/apis/metrics.k8s.io/v1beta1/namespaces/${pending.metadata.namespace}/pods/${pending.metadata.name}`,
    );
    expect(unmeasured.body.message).toBe(
      `podmetrics.metrics.k8s.io "${pending.metadata.namespace}/${pending.metadata.name}" not found`,
    );
    const badField = await kasJson(
      sim(),
      PROD_US,
      `${PODS}?fieldSelector=spec.nodeName%3Dx`,
    );
    expect(badField.status).toBe(400);
  });

  it('sums a node’s pods (plus its system overhead) in NodeMetrics', async () => {
    const nodes = (
      await kasJson(sim(), PROD_US, '/apis/metrics.k8s.io/v1beta1/nodes')
    ).body.items;
    expect(nodes.map((n: any) => n.metadata.name)).toEqual([
      'prod-us-pool-1',
      'prod-us-pool-2',
      'prod-us-pool-3',
    ]);
    const pods = (
      await kasJson(sim(), PROD_US, '/apis/metrics.k8s.io/v1beta1/pods')
    ).body.items;
    const podList = (await kasJson(sim(), PROD_US, '/api/v1/pods')).body.items;
    const cpu = (q: string) => Number(q.slice(0, -1));
    const podCpuOnFirst = pods
      .filter(
        (m: any) =>
          podList.find((p: any) => p.metadata.name === m.metadata.name)?.spec
            .nodeName === 'prod-us-pool-1',
      )
      .flatMap((m: any) => m.containers.map((c: any) => cpu(c.usage.cpu)))
      .reduce((a: number, b: number) => a + b, 0);
    const nodeCpu = cpu(nodes[0].usage.cpu);
    expect(nodeCpu).toBeGreaterThan(podCpuOnFirst);
    expect(nodeCpu - podCpuOnFirst).toBeLessThan(0.3e9);
  });

  it('refuses watch (metrics-server serves get and list only) and answers RBAC like the API server', async () => {
    expect((await kasJson(sim(), PROD_US, `${PODS}?watch=true`)).status).toBe(
      405,
    );
    sim().setFaults({ forbiddenKinds: ['metrics.k8s.io/pods'] });
    const refused = await kasJson(sim(), PROD_US, PODS);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'pods.metrics.k8s.io is forbidden: User "system:serviceaccount:gitlab-agent:gitlab-agent" cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "storefront"',
    );
  });

  it('is absent where metrics-server is not installed (scenario) or turned off (knob): no group, 404', async () => {
    const without = (await kasJson(sim(), PROD_EU, '/apis')).body.groups;
    expect(without.map((g: any) => g.name)).not.toContain('metrics.k8s.io');
    expect(
      (
        await kasJson(
          sim(),
          PROD_EU,
          '/apis/metrics.k8s.io/v1beta1/namespaces/storefront/pods',
        )
      ).status,
    ).toBe(404);
    expect(
      (await kasJson(sim(), NONPROD, '/apis/metrics.k8s.io/v1beta1')).status,
    ).toBe(200);
    sim().setClusterKnobs({ metricsApi: false });
    expect(
      (await kasJson(sim(), NONPROD, '/apis/metrics.k8s.io/v1beta1')).status,
    ).toBe(404);
    expect((await kasJson(sim(), NONPROD, '/apis/metrics.k8s.io')).status).toBe(
      404,
    );
  });
});
