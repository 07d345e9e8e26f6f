import { BackendFeature } from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  OverviewRow,
  OverviewStreamLine,
  applyOverviewHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';

function component(
  name: string,
  annotations: Record<string, string>,
  spec: object = {},
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, namespace: 'default', annotations },
    spec: {
      type: 'service',
      owner: 'team-web',
      lifecycle: 'production',
      system: 'shop',
      ...spec,
    },
  };
}

const entities = [
  component('storefront', {
    'gitlab.com/project-slug': 'acme/shop/storefront',
  }),
  component(
    'notifications',
    {
      'gitlab.com/project-slug': 'acme/platform/notifications',
      'gitlab-env/environments': 'production, staging, development, sandbox',
    },
    { owner: 'group:platform/team-platform', system: 'platform' },
  ),
  component('ghost', { 'gitlab.com/project-slug': 'acme/does-not-exist' }),
  component('docs-site', {}),
];

async function startBackend(
  simulator: RunningSimulator,
  permissions: BackendFeature = mockServices.permissions.factory(),
) {
  const { server } = await startBackendOnSimulator(simulator, {
    entities,
    features: [permissions],
  });
  return server;
}

function parse(text: string): OverviewStreamLine[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map(line => JSON.parse(line));
}

/** The rows as the page ends up with them: listed, then settled by health lines. */
function settledRows(lines: OverviewStreamLine[]): OverviewRow[] {
  return lines.reduce<OverviewRow[]>((rows, line) => {
    if (line.type === 'entity') return [...rows, ...line.rows];
    if (line.type === 'health') return applyOverviewHealth(rows, line);
    return rows;
  }, []);
}

describe('GET /overview', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      kasTunnels: TEST_KAS_TUNNELS,
    });
  });
  afterAll(() => simulator.close());

  it('streams a line per annotated entity with its environments, then their health', async () => {
    const server = await startBackend(simulator);
    const response = await request(server).get('/api/gitlab-env/overview');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/x-ndjson/);

    const lines = parse(response.text);
    expect(lines[0]).toEqual({ type: 'start', entities: 3 });
    expect(lines.at(-1)).toMatchObject({ type: 'done', entities: 3 });
    // Every row is listed before any health is read.
    const types = lines.map(line => line.type);
    expect(types.lastIndexOf('entity')).toBeLessThan(types.indexOf('health'));
    const listed = lines.flatMap(line =>
      line.type === 'entity' ? line.rows : [],
    );
    const healthLines = lines.filter(line => line.type === 'health');
    expect(healthLines).toHaveLength(listed.filter(r => r.pending).length);
    const rows = settledRows(lines);
    expect(rows.some(row => row.pending)).toBe(false);
    const byName = new Map(
      rows.map(row => [
        `${row.entityRef}|${row.environment?.name ?? '-'}`,
        row,
      ]),
    );

    const usRegion = byName.get(
      'component:default/storefront|production/us-region',
    )!;
    expect(usRegion).toMatchObject({
      owner: 'group:default/team-web',
      system: 'system:default/shop',
      project: { fullPath: 'acme/shop/storefront' },
      environment: {
        tier: 'production',
        folder: 'production',
        namespace: 'storefront',
        agent: { name: 'prod-us' },
      },
      health: { status: 'Healthy' },
    });
    // Stopped review apps stay out of the overview.
    expect(byName.has('component:default/storefront|review/old-checkout')).toBe(
      false,
    );

    expect(
      byName
        .get('component:default/notifications|production')!
        .errors.map(e => e.code),
    ).toEqual(['AGENT_NOT_SHARED']);
    expect(
      byName
        .get('component:default/notifications|staging')!
        .errors.map(e => e.code),
    ).toEqual(['AGENT_NOT_VISIBLE']);
    expect(
      byName
        .get('component:default/notifications|sandbox')!
        .errors.map(e => e.code),
    ).toEqual(['NO_AGENT']);
    expect(
      byName.get('component:default/notifications|production')!.owner,
    ).toBe('group:platform/team-platform');
    expect(
      byName.get('component:default/ghost|-')!.errors.map(e => e.code),
    ).toEqual(['PROJECT_NOT_FOUND']);
  });

  it('leaves out each entity the caller may not read', async () => {
    const permissions = mockServices.permissions.mock({
      authorize: async requests =>
        requests.map(r => ({
          result:
            'resourceRef' in r && r.resourceRef === 'component:default/ghost'
              ? AuthorizeResult.DENY
              : AuthorizeResult.ALLOW,
        })),
    });
    const server = await startBackend(simulator, permissions.factory);
    const lines = parse(
      (await request(server).get('/api/gitlab-env/overview')).text,
    );
    expect(lines[0]).toEqual({ type: 'start', entities: 2 });
    expect(new Set(settledRows(lines).map(row => row.entityRef))).toEqual(
      new Set([
        'component:default/storefront',
        'component:default/notifications',
      ]),
    );
    // One batched decision for the whole catalog walk.
    expect(permissions.authorize).toHaveBeenCalledTimes(1);
  });

  it('leaves out everything when the caller may read nothing', async () => {
    const server = await startBackend(
      simulator,
      mockServices.permissions.factory({ result: AuthorizeResult.DENY }),
    );
    const lines = parse(
      (await request(server).get('/api/gitlab-env/overview')).text,
    );
    expect(lines).toEqual([
      { type: 'start', entities: 0 },
      expect.objectContaining({ type: 'done', entities: 0, rows: 0 }),
    ]);
  });

  it('costs no upstream request when loaded again within the cache lifetime', async () => {
    const server = await startBackend(simulator);
    await request(server).get('/api/gitlab-env/overview');
    simulator.resetStats();
    await request(server).get('/api/gitlab-env/overview');
    expect(simulator.stats().requests).toBe(0);
  });
});
