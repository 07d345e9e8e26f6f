import { DEFAULT_FAULTS } from './faults';
import { loadDefaultScenario } from './scenario/load';
import { startGitlabSimulator } from './server';
import { DEMO_TOKEN } from './scenario/generate';
import {
  graphql,
  kas,
  kasJson,
  NONPROD,
  PROD_US,
  useSimulator,
} from './testing/harness';

describe('fault knobs', () => {
  const sim = useSimulator();
  afterEach(() => sim().setFaults(DEFAULT_FAULTS));

  const project = () =>
    fetch(`${sim().apiUrl}/projects/101`, {
      headers: { 'PRIVATE-TOKEN': DEMO_TOKEN },
    });

  it('holds every request back by latencyMs', async () => {
    sim().resetStats();
    sim().setFaults({ latencyMs: 60_000 });
    let slowDone = false;
    const slow = project().then(
      () => (slowDone = true),
      () => (slowDone = true),
    );
    // Lower the knob once the server holds the first request.
    while (!sim().stats().byPath['GET /api/v4/projects/101']) {
      await new Promise(resolve => setImmediate(resolve));
    }
    sim().setFaults({ latencyMs: 0 });
    // A request started after the knob was lowered overtakes the held-back one.
    expect((await project()).status).toBe(200);
    expect(slowDone).toBe(false);
    expect(sim().stats().byPath['GET /api/v4/projects/101']).toBe(2);
    void slow;
  });

  it('fails requests with 5xx in each surface own error shape', async () => {
    sim().setFaults({ errorRate: 1, errorKind: '5xx' });
    const rest = await project();
    expect(rest.status).toBe(500);
    expect(await rest.json()).toEqual({ message: '500 Internal Server Error' });
    const gql = await graphql(sim(), '{ currentUser { username } }');
    expect(gql).toEqual({
      status: 500,
      body: { errors: [{ message: 'Internal server error' }] },
    });
    const proxy = await kasJson(sim(), PROD_US, '/api/v1/pods');
    expect(proxy.body).toMatchObject({
      kind: 'Status',
      code: 503,
      reason: 'ServiceUnavailable',
    });
  });

  it('resets the connection', async () => {
    sim().setFaults({ errorRate: 1, errorKind: 'reset' });
    await expect(project()).rejects.toThrow('fetch failed');
  });

  it('dribbles the body slowly but completely', async () => {
    sim().setFaults({ errorRate: 1, errorKind: 'slow-body' });
    const response = await project();
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    expect(chunks.length).toBeGreaterThan(5);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(JSON.parse(text).id).toBe(101);
  });

  it('answers 200 with truncated JSON', async () => {
    sim().setFaults({ errorRate: 1, errorKind: 'malformed-json' });
    const response = await kas(
      sim(),
      PROD_US,
      '/api/v1/namespaces/storefront/pods',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('forbids resources by plural or group/plural, and subresources', async () => {
    sim().setFaults({
      forbiddenKinds: ['apps/deployments', 'configmaps', 'pods/log'],
    });
    expect(
      (await kasJson(sim(), NONPROD, '/apis/apps/v1/deployments')).body,
    ).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(
      (
        await kasJson(
          sim(),
          NONPROD,
          '/api/v1/namespaces/checkout-staging/configmaps/checkout-config',
        )
      ).status,
    ).toBe(403);
    expect(
      (await kasJson(sim(), NONPROD, '/apis/apps/v1/replicasets')).status,
    ).toBe(200);
    const pods = (
      await kasJson(sim(), NONPROD, '/api/v1/namespaces/notifications-dev/pods')
    ).body.items;
    expect(pods.length).toBeGreaterThan(0);
    const log = await kasJson(
      sim(),
      NONPROD,
      `/api/v1/namespaces/notifications-dev/pods/${pods[0].metadata.name}/log`,
    );
    expect(log.body.message).toContain('cannot get resource "pods/log"');
  });

  it('grants RBAC per namespace only: lists across all namespaces are forbidden', async () => {
    sim().setFaults({ namespacedRbacOnly: true });
    const across = await kasJson(sim(), NONPROD, '/apis/apps/v1/deployments');
    expect(across.status).toBe(403);
    expect(across.body.message).toContain('at the cluster scope');
    const inNamespace = await kasJson(
      sim(),
      NONPROD,
      '/apis/apps/v1/namespaces/checkout-staging/deployments',
    );
    expect(inNamespace.status).toBe(200);
    expect(inNamespace.body.items.length).toBeGreaterThan(0);
    // Cluster-scoped resources are another matter (ClusterRoles), untouched here.
    expect((await kasJson(sim(), NONPROD, '/api/v1/namespaces')).status).toBe(
      200,
    );
  });

  it('disconnects agents by id', async () => {
    sim().setFaults({ disconnectedAgents: [String(PROD_US)] });
    expect((await kas(sim(), PROD_US, '/api/v1/pods')).status).toBe(502);
    expect((await kas(sim(), NONPROD, '/api/v1/pods')).status).toBe(200);
  });

  it('turns KAS off in metadata and at the proxy', async () => {
    sim().setFaults({ kasEnabled: false });
    const { body } = await graphql(
      sim(),
      '{ metadata { kas { enabled externalK8sProxyUrl } } }',
    );
    expect(body.data.metadata.kas).toEqual({
      enabled: false,
      externalK8sProxyUrl: null,
    });
    expect((await kas(sim(), PROD_US, '/api/v1/pods')).status).toBe(404);
  });

  it('counts requests by surface and path until reset', async () => {
    sim().resetStats();
    await project();
    await graphql(sim(), '{ currentUser { username } }');
    await kas(sim(), PROD_US, '/version');
    await kas(sim(), PROD_US, '/version');
    expect(sim().stats()).toEqual({
      requests: 4,
      graphql: 1,
      rest: 1,
      repositoryFileBytes: 0,
      peakTunnelsInUse: { 'prod-us': 1 },
      tunnelWaits: { 'prod-us': { waited: 0, maxWaitMs: 0 } },
      kas: 2,
      byPath: {
        'GET /api/v4/projects/101': 1,
        'POST /api/graphql': 1,
        'GET /-/kubernetes-agent/k8s-proxy/version': 2,
      },
    });
    sim().resetStats();
    expect(sim().stats().requests).toBe(0);
  });

  describe('data faults of a broken server or proxy', () => {
    const PODS = '/api/v1/namespaces/storefront/pods';
    const page = async (token?: string) =>
      (
        await kasJson(
          sim(),
          PROD_US,
          `${PODS}?limit=1${token ? `&continue=${token}` : ''}`,
        )
      ).body;

    it('loops continue tokens A→B→A, serving the first page for each', async () => {
      sim().setFaults({ loopingContinue: true });
      const first = await page();
      const second = await page(first.metadata.continue);
      const third = await page(second.metadata.continue);
      expect([
        first.metadata.continue,
        second.metadata.continue,
        third.metadata.continue,
      ]).toEqual(['loop-A', 'loop-B', 'loop-A']);
      expect(second.items).toEqual(first.items);
    });

    it('loops GraphQL end cursors A→B→A', async () => {
      sim().setFaults({ loopingCursor: true });
      const query = `query($after: String) { project(fullPath: "acme/shop/storefront") {
        environments(first: 1, after: $after) { pageInfo { hasNextPage endCursor } nodes { name } } } }`;
      const cursors: string[] = [];
      let after: string | undefined;
      for (let i = 0; i < 3; i++) {
        const { body } = await graphql(sim(), query, { after });
        const { pageInfo } = body.data.project.environments;
        expect(pageInfo.hasNextPage).toBe(true);
        cursors.push(pageInfo.endCursor);
        after = pageInfo.endCursor;
      }
      expect(cursors).toEqual(['loop-A', 'loop-B', 'loop-A']);
    });

    it('adds an object nested deeper than JSON.stringify can write', async () => {
      sim().setFaults({ deepObjectDepth: 10_000 });
      const response = await kas(sim(), PROD_US, PODS);
      const list = JSON.parse(await response.text());
      const deep = list.items.find(
        (i: any) => i.metadata.name === 'deep-object',
      );
      expect(deep).toBeDefined();
      expect(() => JSON.stringify(deep)).toThrow(RangeError);
    });

    it('pads a list of Pods with copies of its first Pod, paginated by limit', async () => {
      const before = (await kasJson(sim(), PROD_US, PODS)).body.items.length;
      sim().setFaults({ oversizedListItems: 1000 });
      const { items } = (await kasJson(sim(), PROD_US, PODS)).body;
      expect(items).toHaveLength(before + 1000);
      expect(new Set(items.map((i: any) => i.metadata.uid)).size).toBe(
        items.length,
      );
      const names: string[] = [];
      let token: string | undefined;
      do {
        const { body } = await kasJson(
          sim(),
          PROD_US,
          `${PODS}?limit=300${token ? `&continue=${token}` : ''}`,
        );
        names.push(...body.items.map((i: any) => i.metadata.name));
        token = body.metadata.continue;
      } while (token);
      expect(names).toHaveLength(before + 1000);
      expect(new Set(names).size).toBe(names.length);
    });

    it('answers Secrets in a `kind: List`', async () => {
      sim().setFaults({ secretsInList: true });
      // prod-us's RBAC forbids secrets; a copy of the scenario without that serves them.
      const scenario = loadDefaultScenario();
      const open = await startGitlabSimulator({
        scenario: {
          ...scenario,
          agents: scenario.agents.map(a => ({ ...a, forbiddenResources: [] })),
        },
        faults: { secretsInList: true },
      });
      const { body } = await kasJson(
        open,
        PROD_US,
        '/api/v1/namespaces/storefront/secrets',
      );
      await open.close();
      expect(body.kind).toBe('List');
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'Secret' });
    });

    it('gives every item one uid, and the first one wrong metadata types', async () => {
      sim().setFaults({ duplicateUids: true, malformedMetadata: true });
      const { items } = (await kasJson(sim(), PROD_US, PODS)).body;
      expect(new Set(items.map((i: any) => i.metadata.uid)).size).toBe(1);
      expect(items[0].metadata).toMatchObject({
        name: 12345,
        labels: 'not-a-map',
      });
    });

    it('answers bytes that are not UTF-8', async () => {
      sim().setFaults({ errorRate: 1, errorKind: 'invalid-utf8' });
      const bytes = new Uint8Array(
        await (await kas(sim(), PROD_US, PODS)).arrayBuffer(),
      );
      expect(() =>
        new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      ).toThrow();
    });
  });
});
