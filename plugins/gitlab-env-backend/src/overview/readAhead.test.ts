import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import {
  EnvironmentResourcesResponse,
  OverviewRow,
  OverviewStreamLine,
  applyOverviewHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  generateScenario,
  loadDefaultScenario,
  scenarioCatalogEntities,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import {
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';

// The default scenario's entities, plus one whose reads carry a label selector.
const scenario = loadDefaultScenario();
const entities: Entity[] = [
  ...scenarioCatalogEntities(scenario),
  {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: 'notifications-labelled',
      namespace: 'default',
      annotations: {
        'gitlab.com/project-slug': 'acme/platform/notifications',
        'gitlab-env/label-selector': 'app.kubernetes.io/part-of=notifications',
      },
    },
    spec: { type: 'service', owner: 'team', lifecycle: 'production' },
  },
];

async function backend(
  simulator: RunningSimulator,
  overview: Record<string, unknown> = {},
) {
  const { server } = await startBackendOnSimulator(simulator, {
    entities,
    features: [mockServices.permissions.factory()],
    // From 2 namespaces, so the labelled entity's pair is read across the cluster too.
    gitlabEnv: { overview: { clusterWideMinNamespaces: 2, ...overview } },
  });
  return (path: string) => request(server).get(`/api/gitlab-env${path}`);
}

function settledRows(text: string): OverviewRow[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map(line => JSON.parse(line) as OverviewStreamLine)
    .reduce<OverviewRow[]>((rows, line) => {
      if (line.type === 'entity') return [...rows, ...line.rows];
      if (line.type === 'health') return applyOverviewHealth(rows, line);
      return rows;
    }, []);
}

function resourcesPath(row: OverviewRow) {
  const [kind, rest] = row.entityRef.split(':');
  const [namespace, name] = rest.split('/');
  return `/entity/${namespace}/${kind}/${name}/environments/${
    row.environment!.slug
  }/resources`;
}

/** What an environment read answers, without what changes between two reads. */
function comparable(body: EnvironmentResourcesResponse) {
  return {
    resources: body.resources
      .map(
        o =>
          `${o.apiVersion} ${o.kind} ${o.metadata?.namespace}/${o.metadata?.name}`,
      )
      .sort(),
    errors: body.errors.map(e => `${e.code} ${e.resource ?? ''}`).sort(),
    health: body.health.status,
  };
}

// Two backends read a generated cluster of many namespaces through agentk's
// modelled tunnel pool, which a fresh pool grows 10 tunnels at a time.
jest.setTimeout(30_000);

describe('the overview reads many namespaces of an agent across the cluster', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      scenario,
      kasTunnels: TEST_KAS_TUNNELS,
    });
  });
  afterAll(() => simulator.close());
  afterEach(() =>
    simulator.setFaults({ namespacedRbacOnly: false, forbiddenKinds: [] }),
  );

  /**
   * Loads the overview on one backend, then every row's resources on it (from
   * the cache the overview filled) and on a fresh backend that reads each
   * namespace on its own; both must answer the same.
   */
  async function expectSameAsPerNamespaceReads(
    overviewSettings: Record<string, unknown> = {},
  ) {
    const overview = await backend(simulator, overviewSettings);
    simulator.resetStats();
    const rows = settledRows((await overview('/overview')).text).filter(
      row => row.health,
    );
    const overviewStats = simulator.stats();
    expect(rows.length).toBeGreaterThan(8);

    simulator.resetStats();
    const cached = await Promise.all(
      rows.map(row => overview(resourcesPath(row))),
    );
    // The entity tab finds every read the overview made.
    expect(simulator.stats().requests).toBe(0);

    const fresh = await backend(simulator);
    simulator.resetStats();
    const direct = await Promise.all(
      rows.map(row => fresh(resourcesPath(row))),
    );
    const directStats = simulator.stats();

    rows.forEach((row, i) => {
      expect(cached[i].status).toBe(200);
      expect(direct[i].status).toBe(200);
      expect({
        row: `${row.entityRef} ${row.environment!.name}`,
        ...comparable(cached[i].body),
      }).toEqual({
        row: `${row.entityRef} ${row.environment!.name}`,
        ...comparable(direct[i].body),
      });
      // The overview's badge is the tab's roll-up.
      expect(row.health).toEqual(direct[i].body.health);
    });
    return { overviewStats, directStats, cached };
  }

  it('answers each environment as its own read would, for fewer requests', async () => {
    const { overviewStats, directStats } =
      await expectSameAsPerNamespaceReads();
    expect(overviewStats.kas).toBeLessThan(directStats.kas);
    // Lists across the cluster were made; that they kept nothing of other
    // namespaces is the equality with the per-namespace reads above.
    expect(Object.keys(overviewStats.byPath)).toEqual(
      expect.arrayContaining([
        'GET /-/kubernetes-agent/k8s-proxy/apis/apps/v1/deployments',
        'GET /-/kubernetes-agent/k8s-proxy/api/v1/pods',
      ]),
    );
  });

  it('reads namespace by namespace when told not to read across the cluster', async () => {
    const { overviewStats } = await expectSameAsPerNamespaceReads({
      clusterWideReads: false,
    });
    const paths = Object.keys(overviewStats.byPath);
    expect(paths).not.toContain(
      'GET /-/kubernetes-agent/k8s-proxy/apis/apps/v1/deployments',
    );
    expect(paths).toContain(
      'GET /-/kubernetes-agent/k8s-proxy/apis/apps/v1/namespaces/checkout-staging/deployments',
    );
  });

  it('falls back to per-namespace lists where RBAC forbids lists across namespaces', async () => {
    simulator.setFaults({ namespacedRbacOnly: true });
    const { cached } = await expectSameAsPerNamespaceReads();
    expect(
      cached
        .flatMap(r => r.body.errors)
        .filter(e => e.code === 'KIND_FORBIDDEN'),
    ).toEqual(
      // Only what the scenario's RBAC forbids in every namespace (prod-us: secrets).
      cached
        .flatMap(r => r.body.errors)
        .filter(e => e.code === 'KIND_FORBIDDEN' && e.resource === 'Secret'),
    );
  });

  it("reports a kind forbidden everywhere in each environment, as the tab's own read does", async () => {
    simulator.setFaults({ forbiddenKinds: ['configmaps'] });
    const { cached } = await expectSameAsPerNamespaceReads();
    for (const r of cached) {
      expect(r.body.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            code: 'KIND_FORBIDDEN',
            resource: 'ConfigMap',
          }),
        ]),
      );
    }
  });
});

describe("the overview reads an agent's cluster while it still lists rows", () => {
  let simulator: RunningSimulator;
  // The backend's upstream requests, watched (and one held) at the socket;
  // the rest pass through to the simulator.
  const upstream = setupServer();
  beforeAll(() => upstream.listen({ onUnhandledRequest: 'bypass' }));
  afterAll(() => upstream.close());
  afterEach(async () => {
    upstream.resetHandlers();
    upstream.events.removeAllListeners();
    await simulator?.close();
  });

  it('starts the lists across the cluster before the last entity is listed, and covers its namespaces with them', async () => {
    // Three projects of four environments, all behind one agent.
    const generated = generateScenario({
      projects: 3,
      environmentsPerProject: 4,
      objectsPerEnvironment: 6,
      seed: 3,
    });
    simulator = await startGitlabSimulator({
      port: 0,
      scenario: generated,
      kasTunnels: TEST_KAS_TUNNELS,
    });
    // The upstream requests in the order they happen; project-3's listing
    // is held until a list across the cluster has left (or a while, as
    // when lists wait for every row).
    const order: string[] = [];
    const isLate = async (sent: Request) =>
      sent.method === 'POST' &&
      (await sent.clone().text()).includes('bench/project-3');
    const kasPaths: string[] = [];
    let listedAcross!: () => void;
    const across = new Promise<void>(resolve => {
      listedAcross = resolve;
    });
    upstream.use(
      http.all(`${simulator.url}/*`, async ({ request: sent }) => {
        const path = sent.url.slice(simulator.url.length);
        if (path.includes('/k8s-proxy/')) {
          kasPaths.push(path);
          if (!path.includes('/namespaces/') && path.includes('limit=')) {
            order.push('list across the cluster');
            listedAcross();
          }
        }
        if (await isLate(sent))
          await Promise.race([
            across,
            new Promise(resolve => setTimeout(resolve, 3000)),
          ]);
        return passthrough();
      }),
    );
    upstream.events.on('response:bypass', async ({ request: sent }) => {
      if (await isLate(sent)) order.push('project-3 listed');
    });
    const { server } = await startBackendOnSimulator(simulator, {
      entities: scenarioCatalogEntities(generated),
      features: [mockServices.permissions.factory()],
    });
    const rows = settledRows(
      (await request(server).get('/api/gitlab-env/overview')).text,
    ).filter(row => row.entityRef.endsWith('/project-3'));

    expect(order[0]).toBe('list across the cluster');
    expect(order).toContain('project-3 listed');
    // Its namespaces were covered by those lists, never listed on their own.
    expect(kasPaths.filter(p => p.includes('/namespaces/project-3-'))).toEqual(
      [],
    );
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.health?.total).toBeGreaterThan(0);
      expect(row.errors).toEqual([]);
    }
  });
});
