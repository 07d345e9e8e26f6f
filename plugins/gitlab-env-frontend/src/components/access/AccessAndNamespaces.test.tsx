// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { discoveryApiRef, fetchApiRef } from '@backstage/core-plugin-api';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  TestApiProvider,
  mockApis,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import {
  CiAccessMatrixResponse,
  StaleNamespacesResponse,
  StaleNamespacesStreamLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvClient, gitlabEnvApiRef } from '../../api';
import {
  BASE_URL,
  ENTITY_URL,
  storefront,
} from '../../__testUtils__/renderTab';
import { EntityGitlabEnvContent } from '../EntityGitlabEnvContent';
import { StaleNamespacesOverview } from './StaleNamespacesOverview';

// Renders the whole access page against msw: on a loaded 2-core machine
// the first render alone can pass jest's 5 s default.
jest.setTimeout(20_000);

const server = setupServer();
registerMswTestHooks(server);

const variables = {
  CI_ENVIRONMENT_NAME: 'review/feature-cart',
  CI_PROJECT_NAME: 'storefront',
  CI_COMMIT_REF_NAME: 'feature-cart',
};

const MATRIX: CiAccessMatrixResponse = {
  entityRef: 'component:default/storefront',
  project: {
    id: '101',
    fullPath: 'acme/shop/storefront',
    defaultBranch: 'main',
  },
  agents: [
    {
      id: '3',
      name: 'nonprod',
      configProject: 'acme/infra',
      configFile: 'acme/infra: .gitlab/agents/nonprod/config.yaml@main',
    },
    {
      id: '2',
      name: 'prod-eu',
      configProject: 'acme/infra',
      error: {
        code: 'AGENT_CONFIG_INVALID',
        message:
          'acme/infra: .gitlab/agents/prod-eu/config.yaml@main line 6: ci_access.projects[0].rules[0].when must be "never"',
        file: 'acme/infra: .gitlab/agents/prod-eu/config.yaml@main',
        line: 6,
      },
    },
  ],
  environments: [
    {
      name: 'review/feature-cart',
      slug: 'review-feature-ca-wgiuwm',
      tier: 'development',
      state: 'available',
      agentId: '3',
      ref: 'feature-cart',
    },
  ],
  cells: [
    {
      environment: 'review/feature-cart',
      agentId: '3',
      variables,
      decision: {
        authorized: true,
        message: 'Rule 1 of ci_access.groups[0] (acme) matched.',
        entry: { scope: 'groups', index: 0, id: 'acme' },
        ruleIndex: 0,
        namespace: {
          source: 'rule',
          template: '$CI_PROJECT_NAME-review',
          full: 'storefront-review',
          final: 'storefront-review',
          truncated: false,
        },
        ruleErrors: [],
      },
    },
  ],
};

/** The overview's clean-up list, asked for as a person does. */
async function findLeftBehind() {
  const client = new GitlabEnvClient({
    discoveryApi: { getBaseUrl: async () => BASE_URL },
    fetchApi: { fetch: (input, init) => fetch(input, init) },
  });
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [gitlabEnvApiRef, client],
        [permissionApiRef, mockApis.permission()],
      ]}
    >
      <StaleNamespacesOverview />
    </TestApiProvider>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
  await userEvent.click(
    await screen.findByRole('button', {
      name: 'Find namespaces left behind',
    }),
  );
}

const STALE: StaleNamespacesResponse = {
  namespaces: [
    {
      name: 'storefront-review-old-checkout',
      agent: { id: '3', name: 'nonprod' },
      entityRef: 'component:default/storefront',
      projectPath: 'acme/shop/storefront',
      reasons: [
        {
          producedBy: 'environment_namespace',
          environment: 'review/old-checkout',
          environmentState: 'stopped',
        },
      ],
      createdAt: new Date(Date.now() - 40 * 86400e3).toISOString(),
      creator: 'kubectl',
      gitlabDeletes: false,
      contents: {
        counts: { Deployment: 1, Pod: 1, Service: 1 },
        total: 3,
        runningPods: 0,
        runningWorkloads: 0,
        uncounted: [],
      },
      kubectl: 'kubectl delete namespace storefront-review-old-checkout',
    },
  ],
  errors: [],
};

function serve({ deletes }: { deletes: string[] }) {
  let stale = STALE;
  server.use(
    http.get(`${ENTITY_URL}/ci-access`, () => HttpResponse.json(MATRIX)),
    http.get(`${ENTITY_URL}/ci-access/stale-namespaces`, () =>
      HttpResponse.json(stale),
    ),
    http.delete(
      `${ENTITY_URL}/ci-access/agents/:agentId/namespaces/:ns`,
      ({ params }) => {
        deletes.push(`${params.agentId}/${params.ns}`);
        stale = { namespaces: [], errors: [] };
        return HttpResponse.json({
          name: params.ns,
          agentId: params.agentId,
          phase: 'Terminating',
          upstreamStatus: 200,
        });
      },
    ),
  );
}

function renderAccess(
  allowed: AuthorizeResult.ALLOW | AuthorizeResult.DENY = AuthorizeResult.ALLOW,
  permissionApi: typeof permissionApiRef.T = mockApis.permission({
    authorize: allowed,
  }),
) {
  const client = new GitlabEnvClient({
    discoveryApi: { getBaseUrl: async () => BASE_URL },
    fetchApi: { fetch: (input, init) => fetch(input, init) },
  });
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [gitlabEnvApiRef, client],
        [discoveryApiRef, { getBaseUrl: async () => BASE_URL }],
        [fetchApiRef, { fetch }],
        [permissionApiRef, permissionApi],
      ]}
    >
      <EntityProvider entity={storefront}>
        <EntityGitlabEnvContent refreshIntervalMs={60_000} />
      </EntityProvider>
    </TestApiProvider>,
    { routeEntries: ['/?view=access'] },
  );
}

describe('Access and namespaces', () => {
  it('shows environments × agents with the entry, the rule and the namespace, and agent errors with the line', async () => {
    serve({ deletes: [] });
    await renderAccess();
    const table = await screen.findByRole('table', {
      name: 'Access by environment and agent',
    });
    expect(
      within(table).getByRole('columnheader', { name: 'Agent nonprod' }),
    ).toBeInTheDocument();
    const row = within(table).getByRole('row', {
      name: /review\/feature-cart/,
    });
    expect(within(row).getByText('Authorized')).toBeInTheDocument();
    expect(
      within(row).getByText('groups[0] (acme) · rule 1'),
    ).toBeInTheDocument();
    expect(within(row).getByTestId('namespace')).toHaveTextContent(
      'namespace storefront-review',
    );
    expect(within(row).getByText('configuration not read')).toBeInTheDocument();
    expect(
      screen.getByText(/prod-eu\/config.yaml@main line 6/),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('tab', { name: 'Access and namespaces' }),
    ).toHaveAttribute('aria-selected', 'true');
  });

  it('evaluates an expression against the variables of a deployment job and points at a parse error', async () => {
    serve({ deletes: [] });
    await renderAccess();
    await screen.findByRole('table', {
      name: 'Access by environment and agent',
    });
    const input = screen.getByLabelText('rules:if expression');
    fireEvent.change(input, {
      target: { value: '$CI_PROJECT_NAME == "storefront"' },
    });
    expect(await screen.findByText(/The expression is/)).toHaveTextContent(
      'The expression is true',
    );
    fireEvent.change(input, { target: { value: '$CI_PROJECT_NAME = "x"' } });
    expect(await screen.findByLabelText('Error position')).toHaveTextContent(
      '^ position 17',
    );
  });

  it("evaluates =~ with the engine's RE2: a hostile pattern answers at once, RE2's refusals are named", async () => {
    serve({ deletes: [] });
    await renderAccess();
    await screen.findByRole('table', {
      name: 'Access by environment and agent',
    });
    fireEvent.change(
      screen.getByLabelText('CI variables (KEY=value per line)'),
      {
        target: { value: `CI_COMMIT_BRANCH=feature/${'a'.repeat(245)}_` },
      },
    );
    const input = screen.getByLabelText('rules:if expression');
    // Nested quantifiers a backtracking RegExp needs years for at this length.
    fireEvent.change(input, {
      target: {
        value: '$CI_COMMIT_BRANCH =~ /^(feature|fix)\\/([a-z0-9]+-?)+$/',
      },
    });
    expect(await screen.findByText(/The expression is/)).toHaveTextContent(
      'The expression is false',
    );
    // RE2 syntax a JavaScript RegExp lacks: a flag group inside the pattern.
    fireEvent.change(input, {
      target: { value: '$CI_COMMIT_BRANCH =~ /^feature(?i)\\/A/' },
    });
    expect(await screen.findByText(/The expression is/)).toHaveTextContent(
      'The expression is true',
    );
    fireEvent.change(input, {
      target: { value: '$CI_COMMIT_BRANCH =~ /(a)\\1/' },
    });
    const error = await screen.findByLabelText('Error position');
    expect(error.closest('[role="alert"]')).toHaveTextContent(
      'Invalid regular expression! /(a)\\1/ at position 21: invalid regular expression: invalid escape sequence',
    );
    expect(error).toHaveTextContent('^ position 21');
  });

  it('evaluates a whole entry: first matching rule, namespace full and final', async () => {
    serve({ deletes: [] });
    await renderAccess();
    await screen.findByRole('table', {
      name: 'Access by environment and agent',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Whole entry' }));
    const alert = await screen.findByText(/Namespace: full name/);
    expect(alert).toHaveTextContent(
      'full name storefront-review, final name storefront-review',
    );
    expect(alert.closest('[role="alert"]')).toHaveTextContent(
      'Authorized by rule 1.',
    );
  });

  it('lists a stale namespace and deletes it after a confirmation naming its contents and the kubectl command', async () => {
    const deletes: string[] = [];
    serve({ deletes });
    await renderAccess();
    const table = await screen.findByRole('table', {
      name: 'Stale namespaces',
    });
    const row = within(table).getByRole('row', {
      name: /storefront-review-old-checkout/,
    });
    expect(row).toHaveTextContent(
      'environment namespace of review/old-checkout (stopped)',
    );
    expect(row).toHaveTextContent('40d');
    expect(row).toHaveTextContent('kubectl');
    expect(row).toHaveTextContent('1 Deployment, 1 Pod, 1 Service');
    await userEvent.click(
      within(row).getByRole('button', {
        name: 'Delete namespace storefront-review-old-checkout',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete namespace storefront-review-old-checkout?',
    });
    expect(dialog).toHaveTextContent('holds 1 Deployment, 1 Pod, 1 Service');
    expect(dialog).toHaveTextContent(
      'kubectl delete namespace storefront-review-old-checkout',
    );
    expect(deletes).toEqual([]);
    await userEvent.click(
      within(dialog).getByRole('button', {
        name: 'Delete storefront-review-old-checkout',
      }),
    );
    expect(
      await screen.findByText(
        'Namespace storefront-review-old-checkout is being deleted (Terminating).',
      ),
    ).toBeInTheDocument();
    expect(deletes).toEqual(['3/storefront-review-old-checkout']);
    await waitFor(() =>
      expect(screen.getByText(/No namespace left behind/)).toBeInTheDocument(),
    );
  });

  it('disables Delete without the delete permission', async () => {
    serve({ deletes: [] });
    await renderAccess(AuthorizeResult.DENY);
    const button = await screen.findByRole('button', {
      name: 'Delete namespace storefront-review-old-checkout',
    });
    await waitFor(() => expect(button).toBeDisabled());
  });

  it('says a failed permission check failed instead of calling it a denial', async () => {
    serve({ deletes: [] });
    await renderAccess(AuthorizeResult.ALLOW, {
      authorize: async () => {
        throw new Error('permission backend unreachable');
      },
    });
    const button = await screen.findByRole('button', {
      name: 'Delete namespace storefront-review-old-checkout',
    });
    await waitFor(() =>
      expect(button).toHaveAttribute(
        'title',
        expect.stringContaining(
          'Could not check whether you may delete this namespace: permission backend unreachable',
        ),
      ),
    );
    expect(button).toBeDisabled();
  });

  it('lists stale namespaces of all agents on request, biggest first, with their entity', async () => {
    const small = {
      ...STALE.namespaces[0],
      name: 'small-ns',
      contents: { ...STALE.namespaces[0].contents, total: 1 },
    };
    const big = {
      ...STALE.namespaces[0],
      name: 'big-ns',
      entityRef: 'component:default/checkout-api',
      contents: { ...STALE.namespaces[0].contents, total: 9 },
    };
    server.use(
      http.get(`${BASE_URL}/ci-access/stale-namespaces`, () =>
        HttpResponse.json({ namespaces: [big, small], errors: [] }),
      ),
    );
    await findLeftBehind();
    const table = await screen.findByRole('table', {
      name: 'Stale namespaces',
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map(r => within(r).getAllByRole('cell')[0].textContent),
    ).toEqual(['checkout-api', 'storefront']);
    // Entity names link to their pages, not raw refs.
    expect(
      within(rows[0]).getByRole('link', { name: 'checkout-api' }),
    ).toHaveAttribute('href', '/catalog/default/component/checkout-api');
    expect(rows[0]).toHaveTextContent('big-ns');
  });

  it("shows each agent's namespaces as it answers while a slow agent is still read, then its cause", async () => {
    const line = (l: StaleNamespacesStreamLine) =>
      new TextEncoder().encode(`${JSON.stringify(l)}\n`);
    let rest: ReadableStreamDefaultController<Uint8Array> | undefined;
    server.use(
      http.get(`${BASE_URL}/ci-access/stale-namespaces`, ({ request }) => {
        expect(request.headers.get('accept')).toBe('application/x-ndjson');
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(line({ type: 'start', entities: 1 }));
            controller.enqueue(
              line({
                type: 'entity',
                entityRef: 'component:default/storefront',
                agents: ['nonprod', 'edge'],
              }),
            );
            controller.enqueue(
              line({
                type: 'agent',
                entityRef: 'component:default/storefront',
                agent: 'nonprod',
                namespaces: STALE.namespaces,
              }),
            );
            rest = controller;
          },
        });
        return new HttpResponse(body, {
          headers: { 'content-type': 'application/x-ndjson; charset=utf-8' },
        });
      }),
    );
    await findLeftBehind();
    // nonprod answered: its namespace is listed while edge is still read.
    const table = await screen.findByRole('table', {
      name: 'Stale namespaces',
    });
    expect(table).toHaveTextContent('storefront-review-old-checkout');
    expect(screen.getByTestId('stale-namespaces-reading')).toHaveTextContent(
      'Reading the namespaces of agent edge…',
    );
    expect(screen.queryByText(/No namespace left behind/)).toBeNull();

    rest!.enqueue(
      line({
        type: 'agent',
        entityRef: 'component:default/storefront',
        agent: 'edge',
        namespaces: [],
        error: {
          code: 'AGENT_NOT_CONNECTED',
          message: 'The agent edge is not connected to GitLab.',
        },
      }),
    );
    rest!.enqueue(line({ type: 'done', elapsedMs: 40 }));
    rest!.close();
    expect(
      await screen.findByText('The agent edge is not connected to GitLab.', {
        exact: false,
      }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByTestId('stale-namespaces-reading')).toBeNull(),
    );
    expect(
      screen.getByRole('table', { name: 'Stale namespaces' }),
    ).toHaveTextContent('storefront-review-old-checkout');
  });
});
