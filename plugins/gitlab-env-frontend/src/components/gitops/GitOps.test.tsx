import { command } from '../../__testUtils__/commands';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import {
  DesiredStateComparison,
  EnvironmentResourcesResponse,
  KubernetesObject,
  summarizeHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  ENVIRONMENTS,
  environmentsResponse,
} from '../../__testUtils__/fixtures';
import {
  fluxComparison,
  fluxResources,
} from '../../__testUtils__/fluxFixtures';
import {
  BASE_URL,
  ENTITY_URL,
  objectRoute,
  renderTab,
} from '../../__testUtils__/renderTab';
import {
  EngineEnvironment,
  TestLiveStream,
  liveRoute,
} from '../../__testUtils__/liveStream';

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
      HttpResponse.json(environmentsResponse([environment])),
    ),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
      HttpResponse.json(resources),
    ),
    objectRoute(() => resources as EnvironmentResourcesResponse),
    // The comparison's one route: the resources answer carries none.
    http.get(`${ENTITY_URL}/environments/:slug/desired`, () =>
      HttpResponse.json({ desired: fluxComparison() }),
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

  it("shows the drift count the backend sent with the objects the card follows, not the list's older one", async () => {
    serveFluxAs({ ...production, driftedCount: 4 }, fluxResources(production));
    await renderTab({ route: '/?env=production' });
    await screen.findByRole('region', { name: 'GitOps' });
    expect(await screen.findByTestId('drifted-count')).toHaveTextContent(
      '1 drifted',
    );
  });

  it("marks drifted, in the panel, the graph and the drawer, what the backend's read says drifted, not what the objects would say in the browser", async () => {
    // The objects say the ConfigMap was edited with kubectl; the backend,
    // the one owner of the drift, said the ClusterRole drifted (an Event
    // this read no longer holds, say). The page shows the backend's word.
    const read = fluxResources(production);
    expect(Object.keys(read.drift ?? {})).toEqual(['/ConfigMap/shop/config']);
    const owners = {
      ...read,
      drift: {
        [read.graph.nodes.find(n => n.kind === 'ClusterRole')!.id]: {
          drifted: true,
          signals: [
            {
              signal: 'fluxEvent' as const,
              detail: 'ClusterRole/shop-reader changed',
            },
          ],
          changes: [
            { path: 'rules', change: 'changed' as const, by: 'kubectl-patch' },
          ],
        },
      },
    };
    serveFlux(owners);
    await renderTab({ route: '/?env=production' });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    const gitops = await within(panel).findByRole('region', { name: 'GitOps' });
    expect(within(gitops).getByTestId('drift-count')).toHaveTextContent(
      '1 drifted object',
    );
    const drifted = within(gitops).getByRole('list', {
      name: 'Drifted objects',
    });
    expect(within(drifted).getByText('ClusterRole/shop-reader')).toBeVisible();
    expect(within(drifted).queryByText('ConfigMap/config')).toBeNull();
    // The graph's one drift badge is the ClusterRole's.
    expect(
      within(panel)
        .getAllByTitle(/drifted from what Flux applied/)
        .map(node => node.title),
    ).toEqual(['ClusterRole shop-reader — drifted from what Flux applied']);

    await userEvent.click(
      within(drifted).getByRole('button', { name: 'ClusterRole/shop-reader' }),
    );
    const drawer = await screen.findByRole('dialog', {
      name: 'ClusterRole shop-reader',
    });
    expect(
      await within(drawer).findByText(
        'Flux drift detection: ClusterRole/shop-reader changed',
      ),
    ).toBeInTheDocument();
    const table = within(drawer).getByRole('table', { name: 'Drifted fields' });
    expect(within(table).getByText('rules').closest('tr')).toHaveTextContent(
      'kubectl-patch',
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
    const table = await within(drawer).findByRole('table', {
      name: 'Drifted fields',
    });
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
        command(
          'kubectl get configmap config -n shop --show-managed-fields -o yaml',
        ),
      ),
    ).toBeInTheDocument();
    const repository = await within(drawer).findByRole('table', {
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

  it('asks the backend for desired vs live (the resources carry none), and says why where there is none', async () => {
    let asked = 0;
    let answer: object = { desired: fluxComparison() };
    serveFlux(
      fluxResources(production),
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
    // The panel asks once for its summary; the drawer asks for its object.
    await waitFor(() => expect(asked).toBe(1));
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
    expect(asked).toBe(2);
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
      within(drawer).getByText(
        command('flux get kustomization shop -n flux-system'),
      ),
    ).toBeInTheDocument();
  });
});

/**
 * The tab on the live stream: the panel asks `…/desired`, answered by
 * `answer` (a body, or a Response).
 */
async function openLive(answer: () => object | Response) {
  const env = new EngineEnvironment(fluxResources(production));
  const streams: TestLiveStream[] = [];
  const asked: string[] = [];
  server.use(
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json(environmentsResponse([production])),
    ),
    liveRoute(streams),
    objectRoute(() => env.resources()),
    http.get(`${ENTITY_URL}/environments/:slug/desired`, ({ params }) => {
      asked.push(String(params.slug));
      const body = answer();
      return body instanceof Response ? body : HttpResponse.json(body);
    }),
  );
  await renderTab({ route: '/?env=production' });
  await waitFor(() => expect(streams).toHaveLength(1));
  streams[0].send(env.snapshot());
  const panel = await screen.findByRole('region', {
    name: 'Resources of production',
  });
  const gitops = await within(panel).findByRole('region', { name: 'GitOps' });
  return { env, stream: streams[0], asked, gitops };
}

const comparison = (): DesiredStateComparison => fluxComparison();

describe('The GitOps panel on the live tab', () => {
  it('asks the repository once when it opens and shows the comparison, with what it could not render; a live patch does not ask again', async () => {
    const { env, stream, asked, gitops } = await openLive(() => ({
      desired: comparison(),
    }));
    const summary = await within(gitops).findByTestId('desired-summary');
    await waitFor(() =>
      expect(summary).toHaveTextContent(
        'Repository acme/shop at 5d6e7f80, deploy/production: 1 manifests, 1 differ from the cluster',
      ),
    );
    expect(
      within(gitops).getByText(
        'Not compared (needs kustomize or Helm): configMapGenerator (needs kustomize build)',
      ),
    ).toBeInTheDocument();
    expect(asked).toEqual(['production']);

    // Flux applies a new revision: the panel shows it, without asking again.
    const kustomization = env.object('Kustomization', 'shop');
    const applied: KubernetesObject = {
      ...kustomization,
      metadata: { ...kustomization.metadata, resourceVersion: '99' },
      status: {
        ...kustomization.status,
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ReconciliationSucceeded',
            message: 'Applied revision: v3.8.3@sha1:6e7f8091',
          },
        ],
      },
    };
    stream.send(env.patch({ type: 'MODIFIED', object: applied }));
    expect(
      await within(gitops).findByText('Applied revision: v3.8.3@sha1:6e7f8091'),
    ).toBeInTheDocument();
    expect(asked).toEqual(['production']);
    expect(within(gitops).getByTestId('desired-summary')).toBeInTheDocument();
  });

  it("shows the engine's one drift count on the card and in the panel, beside the objects it marked, as live patches move it", async () => {
    const { env, stream, gitops } = await openLive(() => ({
      desired: comparison(),
    }));
    const expectDrifted = (count: number, names: string[]) =>
      waitFor(() => {
        // What the backend's read of the same state says (the overview's card).
        expect(env.resources().environment.driftedCount).toBe(count);
        expect(screen.getByTestId('drifted-count')).toHaveTextContent(
          `${count} drifted`,
        );
        expect(within(gitops).getByTestId('drift-count')).toHaveTextContent(
          `${count} drifted object${count === 1 ? '' : 's'}`,
        );
        const list = within(gitops).getByRole('list', {
          name: 'Drifted objects',
        });
        expect(
          within(list)
            .getAllByRole('button')
            .map(b => b.textContent),
        ).toEqual(names);
      });
    await expectDrifted(1, ['ConfigMap/config']);

    // An Event in Flux's words about no Flux object: once it says the
    // ClusterRole drifted, that is drift too (the engine reads the words).
    const event: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'shop.drift', namespace: 'shop', uid: 'ev-drift' },
      involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'config' },
      type: 'Warning',
      reason: 'DriftDetected',
      lastTimestamp: new Date().toISOString(),
      message: 'Updated',
    };
    stream.send(env.patch({ type: 'ADDED', object: event }));
    stream.send(
      env.patch({
        type: 'MODIFIED',
        object: {
          ...event,
          message:
            'Cluster state of release shop/shop.v2 has drifted from the desired state:\nClusterRole/shop-reader changed (0 additions, 1 changes, 0 removals)',
        },
      }),
    );
    await expectDrifted(2, ['ConfigMap/config', 'ClusterRole/shop-reader']);

    // Flux applies the ConfigMap over kubectl's edit: it drifts no more.
    const config = env.object('ConfigMap', 'config');
    stream.send(
      env.patch({
        type: 'MODIFIED',
        object: {
          ...config,
          metadata: { ...config.metadata, managedFields: [] },
        },
      }),
    );
    await expectDrifted(1, ['ClusterRole/shop-reader']);
  });

  it('says plainly why a HelmRelease has no repository comparison', async () => {
    const reason =
      'A HelmRelease is rendered by helm-controller from the chart and its values in the cluster; the repository holds no plain manifests to compare, so Helm values and templates are not compared here (use the drift signals).';
    const { gitops } = await openLive(() => ({
      desired: { unavailable: reason, notRendered: [], objects: [] },
    }));
    expect(
      await within(gitops).findByText(
        `No desired vs live from the repository: ${reason}`,
      ),
    ).toBeInTheDocument();
    expect(within(gitops).queryByText(/^Repository /)).not.toBeInTheDocument();
  });

  it('names where it looked, without counts, when the manifests could not be compared', async () => {
    const reason =
      'deploy/production/kustomization.yaml does not exist: Flux then applies every manifest under the directory, which the repository files API cannot list.';
    const { gitops } = await openLive(() => ({
      desired: {
        source: comparison().source,
        unavailable: reason,
        notRendered: [],
        objects: [],
      },
    }));
    expect(
      await within(gitops).findByText(
        `No desired vs live from the repository: ${reason}`,
      ),
    ).toBeInTheDocument();
    const summary = within(gitops).getByTestId('desired-summary');
    expect(summary).toHaveTextContent(
      'Repository acme/shop at 5d6e7f80, deploy/production',
    );
    expect(summary).not.toHaveTextContent('manifests');
  });

  it('says so when the GitLab environment names no Flux resource, so there is nothing to compare', async () => {
    const { gitops } = await openLive(() => ({}));
    expect(
      await within(gitops).findByText(
        "No desired vs live from the repository: the GitLab environment names no Flux resource (its flux_resource_path), so the backend does not know which Flux object's source to read. Set the environment's Flux resource in GitLab.",
      ),
    ).toBeInTheDocument();
  });

  it("shows the backend's error with its hint, in the panel and the drawer, and the panel's Retry asks again", async () => {
    let fail = true;
    const { gitops, asked } = await openLive(() =>
      fail
        ? HttpResponse.json(
            {
              error: { name: 'GitlabEnvError', message: 'failed' },
              gitlabEnv: {
                code: 'UPSTREAM_TIMEOUT',
                message: 'GitLab did not answer within 10 s.',
                hint: 'Check that the backend reaches gitlab.example.com.',
              },
            },
            { status: 504 },
          )
        : { desired: comparison() },
    );
    const alert = await within(gitops).findByRole('alert');
    expect(alert).toHaveTextContent('GitLab did not answer within 10 s.');
    expect(alert).toHaveTextContent(
      'What to do: Check that the backend reaches gitlab.example.com.',
    );
    await userEvent.click(
      within(gitops).getByRole('button', { name: 'ConfigMap/config' }),
    );
    const drawer = await screen.findByRole('dialog', {
      name: 'ConfigMap config',
    });
    expect(
      await within(drawer).findByText(
        'The repository comparison failed: GitLab did not answer within 10 s. Check that the backend reaches gitlab.example.com.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Close' }),
    );
    expect(asked).toHaveLength(2);

    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(within(gitops).getByTestId('desired-summary')).toHaveTextContent(
        '1 manifests, 1 differ from the cluster',
      ),
    );
    expect(asked).toHaveLength(3);
  });
});
