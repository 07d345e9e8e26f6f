import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import { summarizeHealth } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { ENVIRONMENTS } from '../../__testUtils__/fixtures';
import { fluxResources } from '../../__testUtils__/fluxFixtures';
import { BASE_URL, ENTITY_URL, renderTab } from '../../__testUtils__/renderTab';

// Each test renders the whole tab; the CI machine is slow.
jest.setTimeout(30_000);

const server = setupServer();
registerMswTestHooks(server);

const production = {
  ...ENVIRONMENTS[2],
  health: summarizeHealth([{ status: 'Degraded' }]),
  driftedCount: 1,
  namespace: 'shop',
  namespaceSource: { source: 'gitlabDeployment' as const, name: 'shop-prod' },
};

function serveFlux(
  resources: object = fluxResources(production),
  ...more: Parameters<typeof server.use>
) {
  serveFluxAs(production, resources, ...more);
}

function serveFluxAs(
  environment: typeof production,
  resources: object,
  ...more: Parameters<typeof server.use>
) {
  server.use(
    ...more,
    // The backend answers the live route as one without live updates does:
    // the tab reads the resources route.
    http.get(`${BASE_URL}/live`, () => new HttpResponse(null, { status: 404 })),
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json({
        entityRef: 'component:default/storefront',
        project: {
          instance: 'gitlab.example.com',
          id: '12',
          fullPath: 'acme/shop',
          webUrl: 'https://gitlab.example.com/acme/shop',
        },
        environments: [environment],
      }),
    ),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
      HttpResponse.json(resources),
    ),
  );
}

describe('GitOps in the environment tab', () => {
  it('shows the Flux sync, the drifted and unmanaged objects apart, and where the namespace came from', async () => {
    serveFlux();
    await renderTab({ route: '/?env=production' });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    expect(await screen.findByTestId('drifted-count')).toHaveTextContent(
      '1 drifted',
    );
    expect(
      await within(panel).findByTestId('namespace-source'),
    ).toHaveTextContent('namespace from the GitLabDeployment shop-prod');
    const gitops = await within(panel).findByRole('region', { name: 'GitOps' });
    expect(within(gitops).getByText('Sync: Ready')).toBeInTheDocument();
    expect(within(gitops).getByTestId('drift-count')).toHaveTextContent(
      '1 drifted object',
    );
    expect(
      within(
        within(gitops).getByRole('list', { name: 'Drifted objects' }),
      ).getByText('ConfigMap/config'),
    ).toBeInTheDocument();
    expect(
      within(
        within(gitops).getByRole('list', { name: 'Unmanaged objects' }),
      ).getByText('ConfigMap/debug'),
    ).toBeInTheDocument();
    // Cluster-scoped entries are found; only the Deployment deleted by hand is Missing.
    expect(within(panel).getByText('worker')).toBeInTheDocument();
  });

  it("counts a card's drift from the objects it follows, not the list's older count", async () => {
    serveFluxAs({ ...production, driftedCount: 4 }, fluxResources(production));
    await renderTab({ route: '/?env=production' });
    await screen.findByRole('region', { name: 'GitOps' });
    expect(await screen.findByTestId('drifted-count')).toHaveTextContent(
      '1 drifted',
    );
  });

  it('opens the drift diff of the edited ConfigMap, with the kubectl that shows it', async () => {
    serveFlux();
    await renderTab({ route: '/?env=production' });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'ConfigMap/config' }),
    );
    const drawer = await screen.findByRole('dialog', {
      name: 'ConfigMap config',
    });
    const table = within(drawer).getByRole('table', { name: 'Drifted fields' });
    const row = within(table).getByText('data.CURRENCY').closest('tr')!;
    expect(row).toHaveTextContent('changed');
    expect(row).toHaveTextContent('"EUR"');
    expect(row).toHaveTextContent('kubectl-edit');
    expect(
      within(drawer).getByText(
        'Server-side apply: 1 field(s) owned by kubectl-edit (Update)',
      ),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByText(
        'kubectl get configmap config -n shop --show-managed-fields -o yaml',
      ),
    ).toBeInTheDocument();
    const repository = within(drawer).getByRole('table', {
      name: 'Fields that differ from the repository',
    });
    expect(
      within(repository).getByText('data.CURRENCY').closest('tr'),
    ).toHaveTextContent('data.CURRENCYchanged"USD""EUR"');
    expect(screen.getByTestId('desired-summary')).toHaveTextContent(
      'Repository acme/shop at 5d6e7f80, deploy/production: 1 manifests, 1 differ from the cluster',
    );
    expect(screen.getByTestId('desired-summary')).toHaveTextContent(
      'Not compared (needs kustomize or Helm): configMapGenerator (needs kustomize build)',
    );
  });

  it('asks the backend for desired vs live when the tab follows the environment live (the snapshot carries none), and says why where there is none', async () => {
    const { desired, ...live } = fluxResources(production);
    let asked = 0;
    let answer: object = { desired };
    serveFlux(
      live,
      http.get(`${ENTITY_URL}/environments/production/desired`, () => {
        asked += 1;
        return HttpResponse.json(answer);
      }),
    );
    await renderTab({ route: '/?env=production' });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    await within(panel).findByRole('region', { name: 'GitOps' });
    expect(asked).toBe(0);
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'ConfigMap/config' }),
    );
    const drawer = await screen.findByRole('dialog', {
      name: 'ConfigMap config',
    });
    const repository = await within(drawer).findByRole('table', {
      name: 'Fields that differ from the repository',
    });
    expect(
      within(repository).getByText('data.CURRENCY').closest('tr'),
    ).toHaveTextContent('data.CURRENCYchanged"USD""EUR"');
    expect(asked).toBe(1);
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Close' }),
    );

    answer = {
      desired: {
        unavailable:
          "The GitRepository's URL is not a project of gitlab.example.com: the backend reads repositories only through this GitLab's API.",
        notRendered: [],
        objects: [],
      },
    };
    await userEvent.click(
      within(within(panel).getByRole('region', { name: 'GitOps' })).getByRole(
        'button',
        { name: 'Kustomization/shop' },
      ),
    );
    const flux = await screen.findByRole('dialog', {
      name: 'Kustomization shop',
    });
    expect(
      await within(flux).findByText(
        "No desired vs live from the repository: The GitRepository's URL is not a project of gitlab.example.com: the backend reads repositories only through this GitLab's API.",
      ),
    ).toBeInTheDocument();
  });

  it("opens the Kustomization's sync state, source revision and history", async () => {
    serveFlux();
    await renderTab({ route: '/?env=production' });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    await userEvent.click(
      within(
        await within(panel).findByRole('region', { name: 'GitOps' }),
      ).getByRole('button', { name: 'Kustomization/shop' }),
    );
    const drawer = await screen.findByRole('dialog', {
      name: 'Kustomization shop',
    });
    const sync = within(drawer).getByRole('region', { name: 'Flux sync' });
    expect(within(sync).getByText('Sync: Ready')).toBeInTheDocument();
    expect(within(sync).getAllByText('v3.8.2@sha1:5d6e7f80')).toHaveLength(2);
    expect(within(sync).getByText('applied')).toBeInTheDocument();
    const history = within(drawer).getByRole('region', { name: 'History' });
    expect(
      within(history).getByText('succeeded · ReconciliationSucceeded'),
    ).toBeInTheDocument();
    expect(
      within(history).getByText('failed · HealthCheckFailed'),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByText('flux get kustomization shop -n flux-system'),
    ).toBeInTheDocument();
  });
});
