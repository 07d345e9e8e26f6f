import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import {
  EnvironmentActionRequest,
  EnvironmentCapability,
  EnvironmentResourcesResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  environmentsResponse,
  shopResources,
} from '../../__testUtils__/fixtures';
import {
  allowedRoute,
  fluxResources,
} from '../../__testUtils__/actionFixtures';
import {
  ENTITY_URL,
  noLiveUpdates,
  objectRoute,
  renderTab,
} from '../../__testUtils__/renderTab';

const server = setupServer();
registerMswTestHooks(server);
// Each test renders the whole tab and walks to a dialog: slow on a busy machine.
jest.setTimeout(30_000);
// The backend answers the live route as one without live updates does, and
// the tab polls (the live path has its own tests).
beforeEach(() => server.use(noLiveUpdates()));

const ENV_URL = `${ENTITY_URL}/environments/production`;

function serve({
  resources = shopResources(),
  denied = {},
  answer = request => ({
    outcome: 'changed',
    message: `Did ${request.action} on ${request.target.name}.`,
    kubectl: 'kubectl …',
  }),
}: {
  resources?: EnvironmentResourcesResponse;
  denied?: Partial<Record<EnvironmentCapability, string>>;
  answer?: (request: EnvironmentActionRequest) => Response | object;
} = {}) {
  const calls = { actions: [] as EnvironmentActionRequest[], resources: 0 };
  server.use(
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json(environmentsResponse()),
    ),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, () => {
      calls.resources += 1;
      return HttpResponse.json(resources);
    }),
    objectRoute(() => resources),
    allowedRoute(denied),
    // The environment names no Flux resource: no repository comparison.
    http.get(`${ENV_URL}/desired`, () => HttpResponse.json({})),
    http.get(
      `${ENV_URL}/logs`,
      () => new HttpResponse('', { headers: { 'content-type': 'text/plain' } }),
    ),
    http.post(`${ENV_URL}/actions`, async ({ request }) => {
      const body = (await request.json()) as EnvironmentActionRequest;
      calls.actions.push(body);
      const result = answer(body);
      return result instanceof Response ? result : HttpResponse.json(result);
    }),
  );
  return calls;
}

/** The graph node of an object, by its kind and name. */
function findNode(panel: HTMLElement, kind: string, name: string) {
  return within(panel).findByLabelText(new RegExp(`^${kind} ${name},`));
}

async function openNode(
  kind: string,
  name: string,
  { expand }: { expand?: string } = {},
) {
  await renderTab({ route: '/?env=production' });
  const panel = await screen.findByRole('region', {
    name: 'Resources of production',
  });
  if (expand) fireEvent.click(await within(panel).findByText(expand));
  fireEvent.click(await findNode(panel, kind, name));
  return panel;
}

/** Opens a node's drawer, chooses an action there and returns its confirmation. */
async function openAction(
  kind: string,
  name: string,
  button: string,
  options: { expand?: string } = {},
) {
  await openNode(kind, name, options);
  const drawer = await screen.findByRole('dialog', { name: `${kind} ${name}` });
  await userEvent.click(
    await within(drawer).findByRole('button', { name: button }),
  );
  const verb = button === 'Delete pod' ? 'Delete' : button;
  return screen.findByRole('dialog', { name: `${verb} ${kind} ${name}?` });
}

function commandIn(dialog: HTMLElement) {
  return within(dialog).getByLabelText('kubectl command').textContent;
}

describe('actions on an environment’s objects', () => {
  it('deletes a pod after a confirmation that names it, says what happens and shows the kubectl command', async () => {
    const calls = serve();
    const dialog = await openAction('Pod', 'api-7c9b-3', 'Delete pod', {
      expand: '7 Pods',
    });
    expect(dialog).toHaveTextContent(
      /In namespace shop: Kubernetes stops pod api-7c9b-3/,
    );
    expect(dialog).toHaveTextContent(/controller starts a replacement/);
    expect(commandIn(dialog)).toBe('kubectl delete pod api-7c9b-3 -n shop');
    expect(
      within(dialog).getByRole('button', { name: /copy/i }),
    ).toBeInTheDocument();
    const readsBefore = calls.resources;

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Delete api-7c9b-3' }),
    );
    expect(
      await screen.findByText('Did pod.delete on api-7c9b-3.'),
    ).toBeInTheDocument();
    expect(calls.actions).toEqual([
      {
        action: 'pod.delete',
        target: {
          apiVersion: 'v1',
          kind: 'Pod',
          namespace: 'shop',
          name: 'api-7c9b-3',
        },
      },
    ]);
    expect(
      screen.queryByRole('dialog', { name: 'Delete Pod api-7c9b-3?' }),
    ).not.toBeInTheDocument();
    // The environment is read again at once after the write.
    await waitFor(() => expect(calls.resources).toBeGreaterThan(readsBefore));
  });

  it('disables what the policy denies and says why', async () => {
    serve({
      denied: {
        'pod.delete':
          'Your permission policy does not allow deleting pods of storefront.',
      },
    });
    await openNode('Pod', 'api-7c9b-3', { expand: '7 Pods' });
    const drawer = await screen.findByRole('dialog', {
      name: 'Pod api-7c9b-3',
    });
    await within(drawer).findByText(
      'Delete pod: Your permission policy does not allow deleting pods of storefront.',
    );
    expect(
      within(drawer).getByRole('button', { name: 'Delete pod' }),
    ).toBeDisabled();
  });

  it('restarts a deployment with the rollout restart command', async () => {
    const calls = serve();
    const dialog = await openAction('Deployment', 'web', 'Restart');
    expect(dialog).toHaveTextContent(/kubectl.kubernetes.io\/restartedAt/);
    expect(dialog).toHaveTextContent(/through a new ReplicaSet/);
    expect(commandIn(dialog)).toBe(
      'kubectl rollout restart deployment/web -n shop',
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Restart web' }),
    );
    await screen.findByText('Did workload.restart on web.');
    expect(calls.actions[0]).toMatchObject({
      action: 'workload.restart',
      target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    });
  });

  it('scales showing the current and the new count, refusing a count that is not a whole number', async () => {
    const calls = serve();
    const dialog = await openAction('Deployment', 'web', 'Scale');
    expect(dialog).toHaveTextContent('Now 3 replicas →');
    expect(
      within(dialog).queryByText(/HorizontalPodAutoscaler/),
    ).not.toBeInTheDocument();
    const input = within(dialog).getByLabelText('New replicas');

    await userEvent.clear(input);
    await userEvent.type(input, '-1');
    expect(
      within(dialog).getByText('A whole number from 0 to 10000'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Scale web' }),
    ).toBeDisabled();

    await userEvent.clear(input);
    await userEvent.type(input, '5');
    expect(commandIn(dialog)).toBe(
      'kubectl scale deployment/web --replicas=5 -n shop',
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Scale web' }),
    );
    await screen.findByText('Did workload.scale on web.');
    expect(calls.actions[0]).toMatchObject({
      action: 'workload.scale',
      replicas: 5,
    });
  });

  it('warns that an autoscaler owns the replica count', async () => {
    serve({ resources: fluxResources() });
    const dialog = await openAction('Deployment', 'cart', 'Scale');
    expect(dialog).toHaveTextContent(
      'HorizontalPodAutoscaler cart owns the replica count (2–6): it will set it back at its next decision.',
    );
  });

  it('reconciles a Kustomization, with its source when asked', async () => {
    const calls = serve({ resources: fluxResources() });
    const dialog = await openAction('Kustomization', 'shop', 'Reconcile');
    expect(commandIn(dialog)).toBe(
      'kubectl annotate --overwrite kustomization.kustomize.toolkit.fluxcd.io/shop -n shop reconcile.fluxcd.io/requestedAt="$(date -u +%Y-%m-%dT%H:%M:%SZ)"',
    );
    await userEvent.click(
      within(dialog).getByLabelText(
        /Reconcile its source GitRepository shop-repo first/,
      ),
    );
    expect(commandIn(dialog)).toMatch(
      /^kubectl annotate --overwrite gitrepository.source.toolkit.fluxcd.io\/shop-repo -n shop .* && kubectl annotate --overwrite kustomization/,
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Reconcile shop' }),
    );
    await screen.findByText('Did flux.reconcile on shop.');
    expect(calls.actions[0]).toMatchObject({
      action: 'flux.reconcile',
      withSource: true,
    });
  });

  it('offers suspend on a running Kustomization and resume on a suspended one', async () => {
    const calls = serve({ resources: fluxResources({ suspended: true }) });
    await openNode('Kustomization', 'shop');
    const drawer = await screen.findByRole('dialog', {
      name: 'Kustomization shop',
    });
    await within(drawer).findByRole('button', { name: 'Resume' });
    expect(
      within(drawer).queryByRole('button', { name: 'Suspend' }),
    ).not.toBeInTheDocument();
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Resume' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Resume Kustomization shop?',
    });
    expect(commandIn(dialog)).toBe(
      `kubectl patch kustomization.kustomize.toolkit.fluxcd.io/shop -n shop --type=merge -p '{"spec":{"suspend":false}}'`,
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Resume shop' }),
    );
    await screen.findByText('Did flux.resume on shop.');
    expect(calls.actions[0]).toMatchObject({ action: 'flux.resume' });
  });

  it('suspends a running Kustomization', async () => {
    serve({ resources: fluxResources() });
    const dialog = await openAction('Kustomization', 'shop', 'Suspend');
    expect(dialog).toHaveTextContent(/Flux stops reconciling it/);
    expect(commandIn(dialog)).toContain(`-p '{"spec":{"suspend":true}}'`);
  });

  it('keeps the dialog open with the cluster’s refusal, its message and what to do', async () => {
    serve({
      answer: () =>
        HttpResponse.json(
          {
            error: { name: 'GitlabEnvError', message: 'forbidden' },
            gitlabEnv: {
              code: 'ACTION_FORBIDDEN',
              message: 'The agent may not patch deployments/scale in shop.',
              hint: 'Grant the agent’s service account patch on deployments/scale.',
              upstreamStatus: 403,
            },
          },
          { status: 403 },
        ),
    });
    const dialog = await openAction('Deployment', 'web', 'Scale');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Scale web' }),
    );
    expect(
      await within(dialog).findByText(
        'The agent may not patch deployments/scale in shop.',
      ),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'What to do: Grant the agent’s service account patch on deployments/scale.',
    );
    expect(
      within(dialog).getByText('The cluster refused this'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Scale web' }),
    ).toBeEnabled();
  });

  it('opens the same actions from a context menu on the graph node', async () => {
    const calls = serve({
      denied: {
        'workload.scale': 'The agent may not patch deployments/scale.',
      },
    });
    await renderTab({ route: '/?env=production' });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    fireEvent.contextMenu(await findNode(panel, 'Deployment', 'web'));

    const menu = await screen.findByRole('menu', {
      name: 'Actions of Deployment web',
    });
    const scale = await within(menu).findByRole('menuitem', { name: /Scale/ });
    await waitFor(() => expect(scale).toHaveAttribute('aria-disabled', 'true'));
    expect(scale).toHaveTextContent(
      'The agent may not patch deployments/scale.',
    );
    await userEvent.click(
      within(menu).getByRole('menuitem', { name: 'Restart' }),
    );

    const dialog = await screen.findByRole('dialog', {
      name: 'Restart Deployment web?',
    });
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Restart web' }),
    );
    await screen.findByText('Did workload.restart on web.');
    expect(calls.actions).toHaveLength(1);
  });

  it("shows the actions on an object the environment does not own disabled, with the backend's reason, in the drawer and the menu", async () => {
    const reason =
      'It carries the deploy-board marker of another project (acme/other).';
    const resources = shopResources();
    resources.graph.nodes.find(
      n => n.kind === 'Deployment' && n.name === 'web',
    )!.readOnly = reason;
    serve({ resources });
    // Sees what the tab asks, then lets serve's route answer.
    const asked: string[] = [];
    server.use(
      http.post(
        `${ENTITY_URL}/environments/:slug/actions/allowed`,
        async ({ request }) => {
          const body = (await request.clone().json()) as {
            targets: Array<{ name: string }>;
          };
          asked.push(...body.targets.map(t => t.name));
          return undefined;
        },
      ),
    );
    const panel = await openNode('Deployment', 'web');
    const drawer = await screen.findByRole('dialog', {
      name: 'Deployment web',
    });
    const actions = within(drawer).getByRole('region', { name: 'Actions' });
    for (const name of ['Restart', 'Scale', 'Roll back…'])
      expect(within(actions).getByRole('button', { name })).toBeDisabled();
    // One reason, said once for the actions it denies.
    expect(actions).toHaveTextContent(`Restart, Scale, Roll back…: ${reason}`);

    fireEvent.contextMenu(await findNode(panel, 'Deployment', 'web'));
    const menu = await screen.findByRole('menu', {
      name: 'Actions of Deployment web',
    });
    for (const name of [/^Restart/, /^Scale/, /^Roll back/]) {
      const item = within(menu).getByRole('menuitem', { name });
      expect(item).toHaveAttribute('aria-disabled', 'true');
      expect(item).toHaveTextContent(reason);
    }
    // Nothing to ask the backend: the tree says why.
    expect(asked).not.toContain('web');
  });

  it('says why in the drawer of an object the environment does not own that offers no action', async () => {
    const reason = 'It is in the agent’s namespace gitlab-agent.';
    const resources = shopResources();
    resources.graph.nodes.find(
      n => n.kind === 'Service' && n.name === 'web',
    )!.readOnly = reason;
    serve({ resources });
    await openNode('Service', 'web');
    const drawer = await screen.findByRole('dialog', { name: 'Service web' });
    expect(
      within(drawer).getByText(`Read-only here: ${reason}`),
    ).toBeInTheDocument();
  });

  it('opens the node menu from the keyboard too', async () => {
    serve();
    await renderTab({ route: '/?env=production' });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    const node = await findNode(panel, 'Deployment', 'web');
    fireEvent.keyDown(node, { key: 'F10', shiftKey: true });
    const menu = await screen.findByRole('menu', {
      name: 'Actions of Deployment web',
    });
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Logs' }));
    const drawer = await screen.findByRole('dialog', {
      name: 'Deployment web',
    });
    expect(within(drawer).getByRole('tab', { name: 'Logs' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});
