// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import {
  GitlabEnvironment,
  HealthStatus,
  OverviewRow,
  OverviewStreamLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  GitlabEnvClient,
  GitlabEnvHistoryClient,
  GitlabEnvLiveClient,
  gitlabEnvApiRef,
  gitlabEnvHistoryApiRef,
  gitlabEnvLiveApiRef,
} from '../../api';
import { VERSIONS } from '../../__testUtils__/historyFixtures';
import {
  EngineEnvironment,
  TestLiveStream,
  crashLooping,
  liveShopResources,
  openLiveStream,
} from '../../__testUtils__/liveStream';
import { GitlabEnvOverviewPage } from './GitlabEnvOverviewPage';

const BASE_URL = 'http://backstage.test/api/gitlab-env';
const server = setupServer();
registerMswTestHooks(server);
// By default the backend answers the live route as one without live
// updates does: rows keep the health the overview read.
beforeEach(() =>
  server.use(
    http.get(`${BASE_URL}/live`, () => new HttpResponse(null, { status: 404 })),
  ),
);

function row(
  entity: string,
  name: string,
  status: HealthStatus | undefined,
  extra: Partial<OverviewRow> = {},
  env: Partial<GitlabEnvironment> = {},
): OverviewRow {
  const slash = name.indexOf('/');
  return {
    entityRef: `component:default/${entity}`,
    owner: 'group:default/team-web',
    system: 'system:default/shop',
    project: {
      instance: 'gitlab.example.com',
      id: '101',
      fullPath: `acme/${entity}`,
      webUrl: `https://gitlab.example.com/acme/${entity}`,
    },
    environment: {
      id: `gid://gitlab/Environment/${entity}-${name}`,
      name,
      slug: name.replace(/\W/g, '-'),
      tier: name.startsWith('production') ? 'production' : 'staging',
      state: 'available',
      folder: slash > 0 ? name.slice(0, slash) : undefined,
      namespace: `${entity}-${name.replace(/\W/g, '-')}`,
      agent: { id: '1', name: 'prod-us' },
      ...env,
    },
    health: status && {
      status,
      total: 3,
      counts: {
        Healthy: 2,
        Suspended: 0,
        Progressing: 0,
        Missing: 0,
        Degraded: 0,
        Unknown: 0,
        none: 0,
        [status]: 1,
      },
    },
    errors: [],
    ...extra,
  };
}

const ROWS: OverviewRow[] = [
  row('storefront', 'production/us-region', 'Healthy'),
  row('storefront', 'production/eu-region', 'Degraded'),
  row('storefront', 'staging', 'Progressing'),
  row('notifications', 'production', undefined, {
    owner: 'group:default/team-platform',
    errors: [
      {
        code: 'AGENT_NOT_SHARED',
        message:
          "You don't have access to the agent that deployed to this environment.",
      },
    ],
  }),
];

function ndjson(lines: OverviewStreamLine[], gate?: Promise<void>, after = 1) {
  const encoder = new TextEncoder();
  return new HttpResponse(
    new ReadableStream({
      async start(controller) {
        for (const [index, line] of lines.entries()) {
          if (gate && index === after) await gate;
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        }
        controller.close();
      },
    }),
    { headers: { 'content-type': 'application/x-ndjson' } },
  );
}

function streamOf(rowsByEntity: OverviewRow[][]): OverviewStreamLine[] {
  return [
    { type: 'start', entities: rowsByEntity.length },
    ...rowsByEntity.map(rows => ({
      type: 'entity' as const,
      entityRef: rows[0].entityRef,
      rows,
    })),
    { type: 'done', entities: rowsByEntity.length, rows: 4, elapsedMs: 12 },
  ];
}

/** The permission API's answer to gitlab-env.diagnostics.read. */
type Decision = 'ALLOW' | 'DENY';

function renderPage(route = '/deployments', diagnostics: Decision = 'DENY') {
  const discoveryApi = { getBaseUrl: async () => BASE_URL };
  const fetchApi = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
  };
  const client = new GitlabEnvClient({ discoveryApi, fetchApi });
  const live = new GitlabEnvLiveClient({
    discoveryApi,
    fetchApi,
    gitlabEnvApi: client,
    options: { settleMs: 5 },
  });
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [gitlabEnvApiRef, client],
        [gitlabEnvLiveApiRef, live],
        [
          gitlabEnvHistoryApiRef,
          new GitlabEnvHistoryClient({ discoveryApi, fetchApi }),
        ],
        [
          permissionApiRef,
          {
            // Everything else allowed, as in the demo portal.
            authorize: async (request: { permission: { name: string } }) => ({
              result:
                request.permission.name === 'gitlab-env.diagnostics.read'
                  ? diagnostics
                  : 'ALLOW',
            }),
          } as any,
        ],
      ]}
    >
      <GitlabEnvOverviewPage />
    </TestApiProvider>,
    {
      routeEntries: [route],
      mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
    },
  );
}

const BY_ENTITY = [ROWS.slice(0, 3), ROWS.slice(3)];

// The first renders of MUI and the permission API are slow on a loaded machine.
jest.setTimeout(20_000);

describe('GitlabEnvOverviewPage', () => {
  it('shows progress while entities resolve and fills rows as they arrive', async () => {
    let release!: () => void;
    const gate = new Promise<void>(resolve => {
      release = resolve;
    });
    server.use(
      http.get(`${BASE_URL}/overview`, () =>
        ndjson(streamOf(BY_ENTITY), gate, 2),
      ),
    );
    await renderPage();

    expect(
      await screen.findByText('Loaded 1 of 2 entities'),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('overview-row')).toHaveLength(3);

    release();
    await waitFor(() =>
      expect(
        screen.queryByText(/Loaded \d of 2 entities/),
      ).not.toBeInTheDocument(),
    );
    expect(screen.getAllByTestId('overview-row')).toHaveLength(4);
    expect(screen.getByText('Showing 4 of 4 environments')).toBeInTheDocument();
  });

  it('marks a row whose health was read from incomplete data, with the reason on hover', async () => {
    const reason = 'Listing apps/Deployment failed: KAS failed with HTTP 503.';
    const healthy = row('storefront', 'production', 'Healthy');
    const partial: OverviewRow = {
      ...healthy,
      health: { ...healthy.health!, partial: { reasons: [reason] } },
      errors: [{ code: 'KIND_FAILED', message: reason }],
    };
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf([[partial]]))),
    );
    await renderPage();
    const status = await screen.findByRole('status', {
      name: /^Health: Healthy, from partial data/,
    });
    const mark = within(status).getByTestId('health-partial');
    await userEvent.hover(mark);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(reason);
  }, 20_000);

  it('lists rows first and settles their health in place as it arrives', async () => {
    let release!: () => void;
    const gate = new Promise<void>(resolve => {
      release = resolve;
    });
    const settled = ROWS.slice(0, 3);
    const listed = settled.map(r => ({
      ...r,
      health: undefined,
      pending: true,
    }));
    const lines: OverviewStreamLine[] = [
      { type: 'start', entities: 1 },
      { type: 'entity', entityRef: listed[0].entityRef, rows: listed },
      ...settled.map(r => ({
        type: 'health' as const,
        entityRef: r.entityRef,
        environmentId: r.environment!.id,
        health: r.health,
        errors: [],
      })),
      { type: 'done', entities: 1, rows: 3, elapsedMs: 12 },
    ];
    server.use(http.get(`${BASE_URL}/overview`, () => ndjson(lines, gate, 3)));
    await renderPage();

    expect(
      await screen.findByText('Read the health of 1 of 3 environments'),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('overview-row')).toHaveLength(3);
    expect(screen.getAllByText('Reading resources…')).toHaveLength(2);
    // Waiting is not a health: only the settled row is counted.
    expect(
      screen.getByRole('button', { name: '1 Healthy' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '0 Unknown' }),
    ).toBeInTheDocument();

    release();
    await waitFor(() =>
      expect(screen.queryByText('Reading resources…')).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '1 Degraded' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '1 Progressing' }),
    ).toBeInTheDocument();
  });

  it('shows the versions of every entity of a system when the filter names one system', async () => {
    const asked: string[] = [];
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf(BY_ENTITY))),
      http.get(`${BASE_URL}/versions`, ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('system') ?? '');
        return HttpResponse.json(VERSIONS);
      }),
    );
    await renderPage('/deployments?system=system:default/shop');
    const section = await screen.findByRole('region', {
      name: 'Versions of system shop',
    });
    const matrix = await within(section).findByRole('table', {
      name: 'storefront',
    });
    expect(matrix).toHaveTextContent('14 commits behind');
    expect(asked).toEqual(['system:default/shop']);
  });

  it('shows no system versions without a single system chosen', async () => {
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf(BY_ENTITY))),
    );
    await renderPage();
    await screen.findByRole('region', { name: 'Production environments' });
    expect(
      screen.queryByRole('region', { name: /^Versions of system/ }),
    ).toBeNull();
  });

  it('groups by tier and folder with the worst first, and links rows to the entity tab', async () => {
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf(BY_ENTITY))),
    );
    await renderPage();

    const production = await screen.findByRole('region', {
      name: 'Production environments',
    });
    const headings = within(production)
      .getAllByRole('heading', { level: 3 })
      .map(h => h.textContent);
    expect(headings[0]).toMatch(/^Environments without a folder/);
    // The folder's name as the entity tab shows it, without a trailing slash.
    expect(headings[1]).toMatch(/^productionDegraded2 environments$/);

    const folder = within(production).getByRole('rowgroup', {
      name: 'Folder production',
    });
    const rows = within(folder).getAllByTestId('overview-row');
    // Environment first, its project on the line below.
    expect(
      rows.map(r => within(r).getAllByRole('cell')[2].textContent),
    ).toEqual([
      expect.stringMatching(/^production\/eu-region\s*acme\/storefront/),
      expect.stringMatching(/^production\/us-region\s*acme\/storefront/),
    ]);
    expect(
      within(rows[0]).getByRole('link', { name: 'storefront' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/storefront/gitlab-env',
    );

    expect(
      screen.getByRole('region', { name: 'Staging environments' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '1 Degraded' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '1 Unknown' }),
    ).toBeInTheDocument();
  });

  it('says why a row failed', async () => {
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf(BY_ENTITY))),
    );
    await renderPage();
    // The row names the failure; the message and what to do are its label and tooltip.
    expect(
      await screen.findByText('The agent does not share this cluster'),
    ).toBeInTheDocument();
    const failed = await screen.findByLabelText(
      /You don't have access to the agent/,
    );
    expect(failed.closest('[data-error-code]')).toHaveAttribute(
      'data-error-code',
      'AGENT_NOT_SHARED',
    );
  });

  it('reads its filters from the URL and writes them back', async () => {
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf(BY_ENTITY))),
    );
    await renderPage('/deployments?folder=production%2Fus-region');

    await waitFor(() =>
      expect(screen.getAllByTestId('overview-row')).toHaveLength(1),
    );
    expect(screen.getByText('Showing 1 of 4 environments')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('overview-row')).getByText(
        'production/us-region',
      ),
    ).toBeInTheDocument();

    await userEvent.click(
      screen.getByRole('button', { name: 'Clear filters' }),
    );
    await waitFor(() =>
      expect(screen.getAllByTestId('overview-row')).toHaveLength(4),
    );

    await userEvent.click(screen.getByRole('button', { name: '1 Degraded' }));
    await waitFor(() =>
      expect(screen.getAllByTestId('overview-row')).toHaveLength(1),
    );
    expect(screen.getByRole('button', { name: '1 Degraded' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('explains an empty catalog', async () => {
    server.use(http.get(`${BASE_URL}/overview`, () => ndjson(streamOf([]))));
    await renderPage();
    expect(
      await screen.findByText('No GitLab environments in the catalog'),
    ).toBeInTheDocument();
  });

  it('shows the typed error when the overview cannot load', async () => {
    server.use(
      http.get(`${BASE_URL}/overview`, () =>
        HttpResponse.json(
          {
            error: { name: 'NotAllowedError', message: 'Not allowed' },
            gitlabEnv: {
              code: 'MISSING_TOKEN',
              message: 'The GitLab instance gitlab.example.com has no token.',
              hint: 'Set gitlabEnv.instances[0].token.',
            },
          },
          { status: 503 },
        ),
      ),
    );
    await renderPage();
    expect(
      await screen.findByText(
        'The GitLab instance gitlab.example.com has no token.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Set gitlabEnv.instances[0].token.'),
    ).toBeInTheDocument();
  });

  it('keeps refusals the agent makes on purpose off the row, and warns of the others', async () => {
    const refusal = (resource: string, expected?: boolean) => ({
      code: 'KIND_FORBIDDEN' as const,
      message: `The cluster's RBAC does not let agent prod-us read ${resource}.`,
      resource,
      ...(expected ? { expected } : {}),
    });
    const rows = [
      row('storefront', 'production/us-region', 'Healthy', {
        errors: [refusal('Secret', true)],
      }),
      row('storefront', 'staging', 'Healthy', {
        errors: [refusal('Secret', true), refusal('apps/Deployment')],
      }),
    ];
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf([rows]))),
    );
    await renderPage();
    const warnings = await screen.findAllByText(
      'The cluster refused to list a kind',
      { exact: false },
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0].textContent).toContain('apps/Deployment');
    expect(screen.queryByText(/\(Secret\)/)).not.toBeInTheDocument();
  });

  it('has no diagnostics tab without gitlab-env.diagnostics.read', async () => {
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf(BY_ENTITY))),
    );
    await renderPage();
    await screen.findByText('The agent does not share this cluster');
    expect(
      screen.queryByRole('tab', { name: 'GitLab diagnostics' }),
    ).not.toBeInTheDocument();
  });

  it('shows admins what the backend sees of each GitLab instance', async () => {
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf(BY_ENTITY))),
      http.get(`${BASE_URL}/diagnostics`, () =>
        HttpResponse.json({
          minimumGitlabVersion: '16.4',
          instances: [
            {
              host: 'gitlab.example.com',
              baseUrl: 'https://gitlab.example.com',
              version: '17.5.3-ee',
              versionUnsupported: false,
              kas: {
                enabled: true,
                url: 'https://gitlab.example.com/-/kubernetes-agent/k8s-proxy',
                source: 'derived',
              },
              token: {
                name: 'backstage',
                scopes: ['read_api'],
                missingScopes: ['k8s_proxy'],
                expiresAt: '2020-01-01',
              },
              checkedAt: '2026-11-23T19:00:00.000Z',
              agents: [
                {
                  id: '7',
                  name: 'lab',
                  configProject: 'acme/platform/search-indexer',
                  lastResult: 'AGENT_NEVER_CONNECTED',
                  lastSeenAt: '2026-11-23T18:59:00.000Z',
                },
              ],
              recentFailures: [
                {
                  at: '2026-11-23T18:59:00.000Z',
                  context: 'acme/platform/search-indexer: lab (agent lab)',
                  error: {
                    code: 'AGENT_NEVER_CONNECTED',
                    message: 'The agent lab has never connected to GitLab.',
                  },
                },
              ],
            },
          ],
        }),
      ),
    );
    await renderPage('/deployments', 'ALLOW');
    await userEvent.click(
      await screen.findByRole('tab', { name: 'GitLab diagnostics' }),
    );
    expect(await screen.findByText('gitlab.example.com')).toBeInTheDocument();
    expect(screen.getByText('17.5.3-ee')).toBeInTheDocument();
    expect(
      screen.getByText(/derived from GitLab's kas.externalUrl/),
    ).toBeInTheDocument();
    expect(screen.getByText('missing: k8s_proxy')).toBeInTheDocument();
    expect(screen.getByText('2020-01-01 (expired)')).toBeInTheDocument();
    expect(screen.getAllByText('The agent has never connected')).toHaveLength(
      2,
    );
  });

  it('updates the rows on screen from the live stream: a crash loop turns a Healthy row Degraded', async () => {
    const healthy = row('storefront', 'staging', 'Healthy');
    const streams: TestLiveStream[] = [];
    server.use(
      http.get(`${BASE_URL}/overview`, () => ndjson(streamOf([[healthy]]))),
      http.get(`${BASE_URL}/live`, ({ request }) => {
        const stream = openLiveStream(request);
        streams.push(stream);
        return stream.response;
      }),
    );
    await renderPage();
    const cells = await screen.findByTestId('overview-row');
    expect(
      within(cells).getByRole('status', { name: /^Health: Healthy/ }),
    ).toBeInTheDocument();
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(
      new URL(streams[0].request.url).searchParams.getAll('environment'),
    ).toEqual(['component:default/storefront/staging']);

    const env = new EngineEnvironment(
      { ...liveShopResources(), environment: healthy.environment! },
      'staging',
    );
    streams[0].send(env.snapshot());
    streams[0].send(
      env.patch({
        type: 'MODIFIED',
        object: crashLooping(env.object('Pod', 'web-5d8f-b')),
      }),
    );
    expect(
      await within(cells).findByRole('status', { name: /^Health: Degraded/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('status', { name: 'Updates: Live' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: '1 Degraded' }),
    ).toBeInTheDocument();
  });
});
