import { command } from '../../__testUtils__/commands';
import {
  act,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, delay, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import {
  GITLAB_ENV_ERROR_CODES,
  GitlabEnvErrorCode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  ENVIRONMENTS,
  environmentsResponse,
  shopResources,
} from '../../__testUtils__/fixtures';
import { allowedRoute } from '../../__testUtils__/actionFixtures';
import {
  ENTITY_URL,
  addressQuery,
  noLiveUpdates,
  objectRoute,
  renderTab,
} from '../../__testUtils__/renderTab';
import { ERROR_CATALOG } from '../errors/errorCatalog';

// The drawer asks what the user may do with the object it shows.
const server = setupServer(allowedRoute());
registerMswTestHooks(server);
// The first renders of MUI and React Flow are slow on a loaded machine.
jest.setTimeout(20_000);
// These tests read the resources route: the backend answers the live route
// as one without live updates does, and the tab polls (the live path is
// tested in EntityGitlabEnvContent.live.test.tsx).
beforeEach(() => server.use(noLiveUpdates()));

/** Every timer API jest can fake but setInterval and clearInterval. */
const ALL_BUT_INTERVALS = [
  'Date',
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setTimeout',
  'clearTimeout',
] as const;

function errorBody(code: GitlabEnvErrorCode, hint?: string) {
  return {
    error: { name: 'GitlabEnvError', message: `failed with ${code}` },
    gitlabEnv: { code, message: `Backend says ${code}.`, hint },
  };
}

const shopOf = (slug: string) =>
  shopResources(ENVIRONMENTS.find(e => e.slug === slug)!);

function serveShop({
  requests,
  objects,
}: { requests?: string[]; objects?: string[] } = {}) {
  server.use(
    http.get(`${ENTITY_URL}/environments`, ({ request }) => {
      requests?.push(request.url);
      return HttpResponse.json(environmentsResponse());
    }),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, ({ params }) =>
      HttpResponse.json(shopOf(String(params.slug))),
    ),
    objectRoute(shopOf, objects),
  );
}

function serveShopWithGenericIngress() {
  server.use(
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json(environmentsResponse()),
    ),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, ({ params }) => {
      const response = shopResources(
        ENVIRONMENTS.find(e => e.slug === params.slug)!,
      );
      const ingress = response.graph.nodes.find(n => n.kind === 'Ingress')!;
      ingress.health = {
        status: 'Unknown',
        message: 'No health rule for Ingress',
        origin: 'generic',
      };
      return HttpResponse.json(response);
    }),
    objectRoute(shopOf),
  );
}

async function openProduction() {
  await renderTab({ route: '/?env=production' });
  return screen.findByRole('region', { name: 'Resources of production' });
}

describe('EntityGitlabEnvContent', () => {
  it('shows skeletons while the environments load', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    await renderTab();
    expect(await screen.findAllByTestId('environment-skeleton')).toHaveLength(
      3,
    );
    expect(screen.getByLabelText('Loading environments')).toHaveAttribute(
      'aria-busy',
      'true',
    );
  });

  it.each(GITLAB_ENV_ERROR_CODES.map(code => [code]))(
    'renders the %s panel with the message and what to do',
    async code => {
      server.use(
        http.get(`${ENTITY_URL}/environments`, () =>
          HttpResponse.json(errorBody(code, `Hint for ${code}.`), {
            status: 400,
          }),
        ),
      );
      await renderTab();
      expect(
        await screen.findByText(ERROR_CATALOG[code].title),
      ).toBeInTheDocument();
      expect(screen.getByText(`Backend says ${code}.`)).toBeInTheDocument();
      expect(screen.getByText(`Hint for ${code}.`)).toBeInTheDocument();
    },
  );

  it('falls back to its own advice when the backend sends no hint', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(errorBody('MISSING_TOKEN'), { status: 500 }),
      ),
    );
    await renderTab();
    expect(
      await screen.findByText(ERROR_CATALOG.MISSING_TOKEN.advice),
    ).toBeInTheDocument();
  });

  it('shows a generic error panel for failures without a code', async () => {
    server.use(
      http.get(
        `${ENTITY_URL}/environments`,
        () =>
          new HttpResponse('<html>Bad gateway</html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          }),
      ),
    );
    await renderTab();
    expect(
      await screen.findByText(/Could not load environments/),
    ).toBeInTheDocument();
  });

  it('explains an empty list of environments', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse([])),
      ),
    );
    await renderTab();
    const alert = await screen.findByText('No environments');
    expect(alert.parentElement).toHaveTextContent(
      'GitLab has no environments for this project (acme/shop)',
    );
  });

  it('orders the cards production first, groups folders and says when one is stopped', async () => {
    serveShop();
    await renderTab();
    await screen.findByRole('heading', { name: 'production', level: 3 });
    const headings = screen
      .getAllByRole('heading', { level: 3 })
      .map(h => h.textContent);
    expect(headings).toEqual([
      'production',
      'staging',
      'review(2)',
      'feature-a',
      'feature-b',
      'old-demo',
    ]);
    const folder = screen.getByRole('region', { name: 'Folder review' });
    expect(within(folder).getAllByRole('heading', { level: 3 })).toHaveLength(
      3,
    );
    const stopped = screen.getByRole('region', { name: 'old-demo' });
    expect(
      within(stopped).getByText('Stopped: nothing deployed.'),
    ).toBeInTheDocument();
    expect(within(stopped).getByText('stopped')).toBeInTheDocument();
  });

  it('shows each environment’s health and last deployment on its card, and the opened one’s details above its graph', async () => {
    serveShop();
    await renderTab({ route: '/?env=production' });
    const card = await screen.findByRole('region', { name: 'production' });
    expect(
      await within(card).findByRole('status', {
        name: 'Health: Degraded (1 Degraded, 2 Progressing, 13 Healthy)',
      }),
    ).toBeInTheDocument();
    expect(
      within(card).getByText(/^main · 3f9a1c2d · \d+[smhd] ago$/),
    ).toBeInTheDocument();

    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    const details = within(panel).getByLabelText('Environment details');
    expect(
      within(details).getByRole('link', { name: /^prod-agent/ }),
    ).toHaveAttribute(
      'href',
      'https://gitlab.example.com/acme/agents/-/cluster_agents/prod',
    );
    // The namespace that was read.
    expect(within(details).getByText('shop')).toBeInTheDocument();
    expect(
      within(details).getByRole('link', {
        name: /main · 3f9a1c2d · \d+[smhd] ago/,
      }),
    ).toHaveAttribute(
      'href',
      'https://gitlab.example.com/acme/shop/-/deployments/42',
    );
    expect(
      within(details).getByRole('link', { name: /^shop\.example\.com/ }),
    ).toBeInTheDocument();
  });

  it('opens the environment that most needs attention, names it in the address, and opens another in one click', async () => {
    const resourceRequests: string[] = [];
    const summarised = ENVIRONMENTS.map(env => ({
      ...env,
      health:
        env.name === 'staging'
          ? shopResources(env).health
          : { ...shopResources(env).health, status: 'Healthy' as const },
    }));
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse(summarised)),
      ),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, ({ request }) => {
        resourceRequests.push(request.url);
        return HttpResponse.json(shopResources());
      }),
    );
    await renderTab();
    // Staging is the only Degraded one: opened though production comes first.
    await screen.findByRole('region', { name: 'Resources of staging' });
    await waitFor(() => expect(addressQuery()).toBe('?env=staging'));
    expect(
      screen.getByRole('button', { name: 'staging', current: true }),
    ).toBeInTheDocument();
    // The cards' badges come from the list: only the opened one is read.
    await waitFor(() =>
      expect(resourceRequests).toEqual([
        expect.stringMatching(/\/environments\/staging\/resources$/),
      ]),
    );

    await userEvent.click(screen.getByRole('button', { name: 'production' }));
    await screen.findByRole('region', { name: 'Resources of production' });
    expect(addressQuery()).toBe('?env=production');
    expect(
      screen.queryByRole('region', { name: 'Resources of staging' }),
    ).not.toBeInTheDocument();
  });

  it('never shows health read from incomplete data as a plain Healthy: a partial mark names the gap on hover', async () => {
    const reason = 'Listing Pod failed: KAS failed with HTTP 503.';
    const environments = ENVIRONMENTS.map(env => ({
      ...env,
      health: { ...shopResources(env).health, status: 'Healthy' as const },
      ...(env.name === 'staging'
        ? {
            health: {
              ...shopResources(env).health,
              status: 'Healthy' as const,
              partial: { reasons: [reason] },
            },
            errors: [{ code: 'KIND_FAILED' as const, message: reason }],
          }
        : {}),
    }));
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse(environments)),
      ),
    );
    await renderTab();
    const card = await screen.findByRole('region', { name: 'staging' });
    expect(
      within(card).getByRole('status', {
        name: /^Health: Healthy, from partial data/,
      }),
    ).toBeInTheDocument();
    const mark = within(card).getByTestId('health-partial');
    expect(mark).toHaveTextContent('partial');
    await userEvent.hover(mark);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(reason);
    const production = screen.getByRole('region', { name: 'production' });
    expect(
      within(production).queryByTestId('health-partial'),
    ).not.toBeInTheDocument();
  }, 20_000);

  it('says which setting GitLab holds was refused instead of a health', async () => {
    const message =
      'GitLab environment staging has Kubernetes namespace `..`, which is not a valid Kubernetes name.';
    const environments = ENVIRONMENTS.map(env =>
      env.name === 'staging'
        ? {
            ...env,
            namespace: undefined,
            errors: [{ code: 'INVALID_ENVIRONMENT_SETTING' as const, message }],
          }
        : env,
    );
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse(environments)),
      ),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, ({ params }) =>
        params.slug === 'staging'
          ? HttpResponse.json(errorBody('INVALID_ENVIRONMENT_SETTING'), {
              status: 409,
            })
          : HttpResponse.json(
              shopResources(ENVIRONMENTS.find(e => e.slug === params.slug)!),
            ),
      ),
    );
    await renderTab({ route: '/?env=production' });
    const card = await screen.findByRole('region', { name: 'staging' });
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent(
      'GitLab holds an invalid setting for this environment',
    );
    expect(alert).toHaveAttribute('title', expect.stringContaining(message));
    // An icon says how serious it is, as every panel of the plugin does.
    expect(alert.querySelector('svg')).not.toBeNull();
  }, 20_000);

  it('opens an environment’s graph, with many pods of one owner grouped until clicked', async () => {
    serveShop();
    const panel = await openProduction();
    expect(await within(panel).findByText('web-5d8f-0')).toBeInTheDocument();
    // The Deployment and its ReplicaSet.
    expect(within(panel).getAllByText('3/3 ready · 60m')).toHaveLength(2);
    // 7 api pods > 5: one group node with counts per status.
    const group = within(panel).getByText('7 Pods');
    expect(within(panel).queryByText('api-7c9b-3')).not.toBeInTheDocument();
    const groupNode = group.closest('.react-flow__node') as HTMLElement;
    expect(within(groupNode).getByLabelText('1 Degraded')).toBeInTheDocument();
    expect(within(groupNode).getByLabelText('6 Healthy')).toBeInTheDocument();

    fireEvent.click(group);
    expect(await within(panel).findByText('api-7c9b-3')).toBeInTheDocument();
    expect(within(panel).queryByText('7 Pods')).not.toBeInTheDocument();
    expect(
      within(panel).getByText(
        'CrashLoopBackOff · 0/1 ready · 12 restarts · 60m',
      ),
    ).toBeInTheDocument();
  });

  it('marks health from the generic rule on the node and in the drawer, with an explanation', async () => {
    serveShopWithGenericIngress();
    const panel = await openProduction();
    const hint = await within(panel).findByText('generic rule');
    expect(hint).toBeInTheDocument();
    fireEvent.click(hint);
    const drawer = await screen.findByRole('dialog', { name: 'Ingress web' });
    const drawerHint = within(drawer).getByText('generic rule');
    await userEvent.hover(drawerHint);
    expect(
      await screen.findByRole('tooltip', {
        name: /No rule knows this kind: its health was read from the status conventions/,
      }),
    ).toBeInTheDocument();
  }, 15_000);

  it('marks health from the generic rule in the list view, next to the status', async () => {
    serveShopWithGenericIngress();
    const panel = await openProduction();
    await within(panel).findByText('generic rule');
    await userEvent.click(
      within(panel).getByRole('button', { name: 'List view' }),
    );
    const table = await within(panel).findByRole('table');
    const ingressRow = within(table)
      .getAllByRole('row')
      .find(row => row.textContent?.includes('Ingress'))!;
    expect(ingressRow).toHaveTextContent('Unknowngeneric rule');
  }, 15_000);

  it('scrolls the page on a plain wheel over the graph, and zooms on Ctrl+wheel or once the graph is clicked', async () => {
    serveShop();
    const panel = await openProduction();
    await within(panel).findByText('web-5d8f-0');
    const graph = within(panel).getByTestId('resource-graph');
    const pane = graph.querySelector('.react-flow__pane') as HTMLElement;
    // fireEvent answers false when the graph took the wheel (preventDefault):
    // then the page does not scroll.
    expect(fireEvent.wheel(pane, { deltaY: 120 })).toBe(true);
    expect(within(graph).getByRole('status')).toHaveTextContent(
      'Use Ctrl + scroll to zoom, or click the graph first',
    );
    expect(fireEvent.wheel(pane, { deltaY: 120, ctrlKey: true })).toBe(false);

    fireEvent.pointerDown(pane);
    expect(within(graph).queryByRole('status')).not.toBeInTheDocument();
    expect(fireEvent.wheel(pane, { deltaY: 120 })).toBe(false);

    fireEvent.pointerOut(pane, { relatedTarget: document.body });
    expect(fireEvent.wheel(pane, { deltaY: 120 })).toBe(true);
  });

  it('opens the drawer of a node with its health, kubectl commands, events and YAML', async () => {
    serveShop();
    const panel = await openProduction();
    fireEvent.click(await within(panel).findByText('7 Pods'));
    fireEvent.click(await within(panel).findByText('api-7c9b-3'));

    const drawer = await screen.findByRole('dialog', {
      name: 'Pod api-7c9b-3',
    });
    expect(
      within(drawer).getByText('Back-off restarting failed container'),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByText(
        command('kubectl get pod api-7c9b-3 -n shop -o yaml'),
      ),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByText(
        command('kubectl describe pod api-7c9b-3 -n shop'),
      ),
    ).toBeInTheDocument();
    const chain = within(drawer).getByRole('list', { name: 'Owner chain' });
    expect(chain).toHaveTextContent(
      'Deployment/api›ReplicaSet/api-7c9b›Pod/api-7c9b-3',
    );
    // The object, asked when the drawer opens.
    expect(await within(drawer).findByText('app=api')).toBeInTheDocument();

    await userEvent.click(
      within(drawer).getByRole('tab', { name: 'Events (1)' }),
    );
    expect(within(drawer).getByText(/BackOff/)).toBeInTheDocument();
    expect(
      within(drawer).getByText('Back-off restarting failed container app'),
    ).toBeInTheDocument();

    await userEvent.click(within(drawer).getByRole('tab', { name: 'YAML' }));
    // The highlighter loads lazily.
    await waitFor(() => expect(drawer).toHaveTextContent('kind: Pod'));
    expect(drawer).toHaveTextContent('reason: CrashLoopBackOff');

    // Walking up the owner chain selects the owner.
    await userEvent.click(within(drawer).getByRole('tab', { name: 'Summary' }));
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Deployment/api' }),
    );
    expect(
      await screen.findByRole('dialog', { name: 'Deployment api' }),
    ).toBeInTheDocument();
  });

  it('reads the Events of an open drawer again when its Events tab is chosen', async () => {
    serveShop();
    // An Event the backend's store gains after the drawer opened: the node
    // the graph draws does not change with it.
    let later = false;
    const withLaterEvent = (slug: string) => {
      const state = shopOf(slug);
      if (!later) return state;
      return {
        ...state,
        resources: [
          ...state.resources,
          {
            apiVersion: 'v1',
            kind: 'Event',
            metadata: {
              name: 'api-7c9b-3.2',
              namespace: 'shop',
              uid: 'uid-Event-api-7c9b-3.2',
            },
            involvedObject: {
              kind: 'Pod',
              name: 'api-7c9b-3',
              namespace: 'shop',
              uid: 'uid-Pod-api-7c9b-3',
            },
            type: 'Warning',
            reason: 'Unhealthy',
            message: 'Readiness probe failed: connection refused',
            count: 1,
            lastTimestamp: new Date().toISOString(),
          },
        ],
      };
    };
    const objects: string[] = [];
    server.use(objectRoute(withLaterEvent, objects));
    const panel = await openProduction();
    fireEvent.click(await within(panel).findByText('7 Pods'));
    fireEvent.click(await within(panel).findByText('api-7c9b-3'));
    const drawer = await screen.findByRole('dialog', {
      name: 'Pod api-7c9b-3',
    });
    await within(drawer).findByRole('tab', { name: 'Events (1)' });
    const asked = objects.length;

    later = true;
    await userEvent.click(
      within(drawer).getByRole('tab', { name: 'Events (1)' }),
    );
    expect(
      await within(drawer).findByText(
        'Readiness probe failed: connection refused',
      ),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByRole('tab', { name: 'Events (2)' }),
    ).toBeInTheDocument();
    expect(objects.length).toBe(asked + 1);
  });

  it('shows in the drawer the chain the graph draws: a Service nothing owns sits under its Ingress', async () => {
    serveShop();
    const panel = await openProduction();
    const graph = await within(panel).findByTestId('resource-graph');
    const serviceNode = (await within(graph).findByLabelText(
      /^Service web,/,
    )) as HTMLElement;
    // In the graph, the Ingress's routes edge places the Service.
    expect(
      graph.querySelector(
        '[aria-label="networking.k8s.io/Ingress/shop/web routes /Service/shop/web"]',
      ),
    ).not.toBeNull();
    fireEvent.click(within(serviceNode).getByText('web'));

    const drawer = await screen.findByRole('dialog', { name: 'Service web' });
    const chain = within(drawer).getByRole('list', { name: 'Owner chain' });
    expect(chain).toHaveTextContent('Ingress/webroutes ›Service/web');
  });

  it('opens nodes from the keyboard', async () => {
    serveShop();
    const panel = await openProduction();
    const group = (await within(panel).findByText('7 Pods')).closest(
      '.react-flow__node',
    ) as HTMLElement;
    expect(group).toHaveAttribute('tabindex', '0');
    fireEvent.keyDown(group, { key: 'Enter' });
    const pod = (await within(panel).findByText('api-7c9b-3')).closest(
      '.react-flow__node',
    ) as HTMLElement;
    fireEvent.keyDown(pod, { key: ' ' });
    expect(
      await screen.findByRole('dialog', { name: 'Pod api-7c9b-3' }),
    ).toBeInTheDocument();
  });

  it('filters by name and health, keeping the owners of matches as context', async () => {
    serveShop();
    const panel = await openProduction();
    await within(panel).findByText('web-5d8f-0');

    await userEvent.click(
      within(panel).getByRole('button', { name: 'Degraded' }),
    );
    expect(await within(panel).findByText('api-7c9b-3')).toBeInTheDocument();
    expect(within(panel).queryByText('web-5d8f-0')).not.toBeInTheDocument();
    expect(within(panel).getByText('api-7c9b')).toBeInTheDocument();

    await userEvent.click(
      within(panel).getByRole('button', { name: 'Clear filters' }),
    );
    await userEvent.type(within(panel).getByLabelText('Name'), 'web');
    await waitFor(() =>
      expect(within(panel).queryByText('7 Pods')).not.toBeInTheDocument(),
    );
    expect(within(panel).getByText('web-5d8f-1')).toBeInTheDocument();
  });

  it('hides uninteresting kinds until asked', async () => {
    serveShop();
    const panel = await openProduction();
    await within(panel).findByText('web-5d8f-0');
    expect(within(panel).queryByText('api-config')).not.toBeInTheDocument();

    await userEvent.click(
      within(panel).getByRole('checkbox', {
        name: /Show all kinds \(2 hidden\)/,
      }),
    );
    expect(await within(panel).findByText('api-config')).toBeInTheDocument();
  });

  it('lists the same resources as a table whose names open the drawer', async () => {
    serveShop();
    const panel = await openProduction();
    await within(panel).findByText('web-5d8f-0');
    await userEvent.click(
      within(panel).getByRole('button', { name: 'List view' }),
    );

    const table = await within(panel).findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 16);
    // Worst health first.
    const firstRow = within(table).getAllByRole('row')[1];
    expect(firstRow).toHaveTextContent('api-7c9b-3');
    await userEvent.click(
      within(table).getByRole('button', { name: 'api-7c9b-3' }),
    );
    expect(
      await screen.findByRole('dialog', { name: 'Pod api-7c9b-3' }),
    ).toBeInTheDocument();
  });

  it('shows partial errors above the data that did load', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse()),
      ),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
        HttpResponse.json(
          shopResources(ENVIRONMENTS[2], [
            {
              code: 'KIND_FORBIDDEN',
              message: 'secrets is forbidden for the agent',
              hint: 'Grant list on secrets.',
              resource: 'Secret',
              upstreamStatus: 403,
            },
          ]),
        ),
      ),
    );
    const panel = await openProduction();
    const warning = await within(panel).findByRole('alert');
    expect(warning).toHaveTextContent(
      'Secret: secrets is forbidden for the agent — Grant list on secrets.',
    );
    expect(await within(panel).findByText('web-5d8f-0')).toBeInTheDocument();
  });

  it('shows a refusal the agent makes on purpose as information, not as a warning', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse()),
      ),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
        HttpResponse.json(
          shopResources(ENVIRONMENTS[2], [
            {
              code: 'KIND_FORBIDDEN',
              message: 'secrets is forbidden for the agent',
              resource: 'Secret',
              upstreamStatus: 403,
              expected: true,
            },
          ]),
        ),
      ),
    );
    const panel = await openProduction();
    expect(
      await within(panel).findByText('Not shown by design: Secret'),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
    expect(await within(panel).findByText('web-5d8f-0')).toBeInTheDocument();
  });

  it('renders an environment’s own error panel in place of its resources', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse()),
      ),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
        HttpResponse.json(
          errorBody('AGENT_NOT_CONNECTED', 'Start agentk in the cluster.'),
          { status: 503 },
        ),
      ),
    );
    const panel = await openProduction();
    expect(
      await within(panel).findByText(ERROR_CATALOG.AGENT_NOT_CONNECTED.title),
    ).toBeInTheDocument();
    expect(
      within(panel).getByText('Start agentk in the cluster.'),
    ).toBeInTheDocument();
    // The card says so too, instead of a health badge.
    const card = screen.getByRole('region', { name: 'production' });
    expect(
      within(card).getByText(ERROR_CATALOG.AGENT_NOT_CONNECTED.title),
    ).toBeInTheDocument();
  });

  it('explains an environment with no resources', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse()),
      ),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
        HttpResponse.json({
          ...shopResources(),
          resources: [],
          graph: { nodes: [], edges: [], roots: [] },
        }),
      ),
    );
    const panel = await openProduction();
    expect(
      await within(panel).findByText(
        /No resources in this environment’s namespace/,
      ),
    ).toBeInTheDocument();
  });

  it('shows a skeleton while an environment’s resources load', async () => {
    server.use(
      http.get(`${ENTITY_URL}/environments`, () =>
        HttpResponse.json(environmentsResponse()),
      ),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const panel = await openProduction();
    expect(within(panel).getByTestId('resources-skeleton')).toBeInTheDocument();
  });

  it('keeps the environments on screen when a refresh fails, and says so', async () => {
    let calls = 0;
    server.use(
      http.get(`${ENTITY_URL}/environments`, () => {
        calls++;
        return calls === 1
          ? HttpResponse.json(environmentsResponse())
          : HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 504 });
      }),
      http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
        HttpResponse.json(shopResources()),
      ),
    );
    await renderTab();
    await screen.findByRole('heading', { name: 'production', level: 3 });
    await userEvent.click(screen.getByRole('button', { name: 'Refresh now' }));
    expect(
      await screen.findByText(
        /The last refresh failed \(Backend says UPSTREAM_TIMEOUT\.\)/,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'production', level: 3 }),
    ).toBeInTheDocument();
  });

  it('refreshes on an interval until the user pauses it', async () => {
    // Only intervals are faked: the test says when one passes, so what it
    // counts never depends on how fast a loaded machine runs the page.
    jest.useFakeTimers({ doNotFake: [...ALL_BUT_INTERVALS] });
    try {
      const requests: string[] = [];
      serveShop({ requests });
      await renderTab({ refreshIntervalMs: 300 });
      // The list has arrived and no load is in flight (the poller starts
      // none while one is).
      const listRead = () =>
        screen.findByText(/^Environments read /, undefined, {
          timeout: 10_000,
        });
      await listRead();
      expect(requests).toHaveLength(1);
      for (const count of [2, 3]) {
        act(() => jest.advanceTimersByTime(300));
        await waitFor(() => expect(requests).toHaveLength(count), {
          timeout: 10_000,
        });
        await listRead();
      }

      const toggle = screen.getByRole('checkbox', { name: /Auto-refresh/ });
      expect(toggle).toBeChecked();
      await userEvent.click(toggle);
      expect(toggle).not.toBeChecked();
      // Ten intervals pass: no load starts (it would show at once).
      act(() => jest.advanceTimersByTime(3_000));
      expect(screen.queryByText('Refreshing…')).not.toBeInTheDocument();
      await listRead();
      expect(requests).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
