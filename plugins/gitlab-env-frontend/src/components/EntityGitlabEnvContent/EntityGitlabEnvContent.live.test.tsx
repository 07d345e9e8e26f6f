import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import { ENVIRONMENTS } from '../../__testUtils__/fixtures';
import { ERROR_CATALOG } from '../errors/errorCatalog';
import { CHOICE_WAITS_FOR_HEALTH_MS } from './EntityGitlabEnvContent';
import {
  BASE_URL,
  ENTITY_URL,
  addressQuery,
  objectRoute,
  renderTab,
} from '../../__testUtils__/renderTab';
import {
  EngineEnvironment,
  TestLiveStream,
  crashLooping,
  liveShopResources,
  openLiveStream,
  podOf,
} from '../../__testUtils__/liveStream';

const server = setupServer();
registerMswTestHooks(server);

// The first renders of MUI and React Flow are slow on a loaded machine.
jest.setTimeout(30_000);

const running = ENVIRONMENTS.filter(env => env.state !== 'stopped');

/** Each running environment of the shop as the backend's engine holds it. */
function engines() {
  return new Map(
    running.map(env => [
      env.slug,
      new EngineEnvironment({ ...liveShopResources(), environment: env }),
    ]),
  );
}

function serve(options: { resources?: boolean } = {}) {
  const streams: TestLiveStream[] = [];
  const envs = engines();
  // The drawer's object: the backend's live store, the engine's state.
  const objects: string[] = [];
  server.use(
    objectRoute(slug => envs.get(slug)?.resources(), objects),
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json({
        entityRef: 'component:default/storefront',
        project: {
          instance: 'gitlab.example.com',
          id: '12',
          fullPath: 'acme/shop',
          webUrl: 'https://gitlab.example.com/acme/shop',
        },
        environments: ENVIRONMENTS,
      }),
    ),
    http.get(`${BASE_URL}/live`, ({ request }) => {
      const stream = openLiveStream(request);
      streams.push(stream);
      return stream.response;
    }),
  );
  if (options.resources) {
    server.use(
      http.get(`${ENTITY_URL}/environments/:slug/resources`, ({ params }) =>
        HttpResponse.json(envs.get(String(params.slug))!.resources()),
      ),
    );
  }
  const snapshots = (stream: TestLiveStream, dataAt?: string) => {
    for (const env of envs.values()) stream.send(env.snapshot(dataAt));
  };
  return { streams, envs, snapshots, objects };
}

async function openProductionLive() {
  const shop = serve();
  await renderTab({ route: '/?env=production' });
  await waitFor(() => expect(shop.streams).toHaveLength(1));
  shop.snapshots(shop.streams[0]);
  const panel = await screen.findByRole('region', {
    name: 'Resources of production',
  });
  await within(panel).findByText('web-5d8f-a');
  return { ...shop, panel, stream: shop.streams[0] };
}

/** Where React Flow draws a node: its transform. */
function placeOf(panel: HTMLElement, id: string) {
  return (
    panel.querySelector<HTMLElement>(
      `.react-flow__node[data-id="${CSS.escape(id)}"]`,
    )?.style.transform ?? 'absent'
  );
}

describe('EntityGitlabEnvContent, live', () => {
  it('follows every running environment over one stream and says it is live, with the age of the data', async () => {
    const shop = serve();
    await renderTab({ route: '/?env=production' });
    await waitFor(() => expect(shop.streams).toHaveLength(1));
    expect(
      new URL(shop.streams[0].request.url).searchParams.getAll('environment'),
    ).toEqual(
      running.map(env => `component:default/storefront/${env.slug}`).sort(),
    );
    shop.snapshots(
      shop.streams[0],
      new Date(Date.now() - 42_000).toISOString(),
    );
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    expect(
      await within(panel).findByRole('status', { name: 'Updates: Live' }),
    ).toBeInTheDocument();
    // Live, the age is that of the newest change, and says so.
    expect(within(panel).getByTestId('data-age')).toHaveTextContent(
      /^last change 4[2-4] s ago$/,
    );
    expect(within(panel).queryByText(/old$/)).not.toBeInTheDocument();
    expect(
      screen.getByRole('checkbox', { name: 'Live updates' }),
    ).toBeChecked();
  });

  it('applies patches in place: new pods appear, the others keep their places, and a crash loop turns the node and the badges Degraded', async () => {
    const { panel, stream, envs } = await openProductionLive();
    const prod = envs.get('production')!;
    const podA = '/Pod/shop/web-5d8f-a';
    const deployment = 'apps/Deployment/shop/web';
    const before = [placeOf(panel, podA), placeOf(panel, deployment)];
    expect(before).not.toContain('absent');

    const rs = prod.object('ReplicaSet', 'web-5d8f');
    stream.send(
      prod.patch([
        { type: 'ADDED', object: podOf(rs, 'web-5d8f-c') },
        { type: 'ADDED', object: podOf(rs, 'web-5d8f-d') },
      ]),
    );
    expect(await within(panel).findByText('web-5d8f-d')).toBeInTheDocument();
    expect(within(panel).getByText('web-5d8f-c')).toBeInTheDocument();
    expect([placeOf(panel, podA), placeOf(panel, deployment)]).toEqual(before);

    stream.send(
      prod.patch({
        type: 'MODIFIED',
        object: crashLooping(prod.object('Pod', 'web-5d8f-a')),
      }),
    );
    await waitFor(() =>
      expect(
        panel.querySelector(`.react-flow__node[data-id="${CSS.escape(podA)}"]`),
      ).toHaveAttribute('aria-label', 'Pod web-5d8f-a, Degraded'),
    );
    expect(
      within(panel).getByRole('status', { name: /^Health: Degraded/ }),
    ).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'production' });
    expect(
      within(card).getByRole('status', { name: /^Health: Degraded/ }),
    ).toBeInTheDocument();
    // Nothing was read again: the patch did it.
    expect(placeOf(panel, deployment)).toBe(before[1]);
  });

  it("opens a node's drawer with the object the backend's live store holds, asked when the drawer opens and again when the node changes", async () => {
    const { panel, stream, envs, objects } = await openProductionLive();
    const prod = envs.get('production')!;
    const podA = '/Pod/shop/web-5d8f-a';
    // The tree the page holds has no object: nothing was asked yet.
    expect(objects).toEqual([]);

    fireEvent.click(within(panel).getByText('web-5d8f-a'));
    const drawer = await screen.findByRole('dialog', {
      name: 'Pod web-5d8f-a',
    });
    await waitFor(() => expect(objects).toEqual([podA]));
    // Choosing the YAML reads it as it is now.
    await userEvent.click(
      await within(drawer).findByRole('tab', { name: 'YAML' }),
    );
    await waitFor(() => expect(drawer).toHaveTextContent('kind: Pod'));
    expect(drawer).not.toHaveTextContent('CrashLoopBackOff');
    await waitFor(() => expect(objects).toEqual([podA, podA]));

    // A live change of the node: the drawer shows the store's new object.
    stream.send(
      prod.patch({
        type: 'MODIFIED',
        object: crashLooping(prod.object('Pod', 'web-5d8f-a')),
      }),
    );
    await waitFor(() =>
      expect(drawer).toHaveTextContent('reason: CrashLoopBackOff'),
    );
    expect(objects).toEqual([podA, podA, podA]);
  });

  it('says when it reconnects and why, and when the backend polls a kind because of the watch cap or while it has no objects', async () => {
    const { panel, stream, streams, envs } = await openProductionLive();
    stream.send({
      type: 'status',
      key: envs.get('production')!.key,
      upstream: 'live',
      kinds: [
        { resource: 'apps/Deployment', mode: 'watch' },
        {
          resource: 'Pod',
          mode: 'poll',
          reason:
            'The agent already holds 4 watches (gitlabEnv.live.maxWatchesPerAgent): Pod is listed again every 15 s.',
        },
        {
          resource: 'discovery.k8s.io/EndpointSlice',
          mode: 'poll',
          reason:
            'The agent already holds 4 watches (gitlabEnv.live.maxWatchesPerAgent): discovery.k8s.io/EndpointSlice is listed again every 15 s.',
        },
        {
          resource: 'policy/PodDisruptionBudget',
          mode: 'poll',
          reason:
            'No objects yet; watched once some appear: policy/PodDisruptionBudget is listed again every 15 s.',
        },
      ],
    });
    // One line per cause: the cap, and kinds left to poll while empty.
    await waitFor(() =>
      expect(
        within(panel)
          .getAllByTestId('polled-kinds')
          .map(line => line.textContent),
      ).toEqual([
        'Polled instead of watched: Pod, EndpointSlice (The agent already holds 4 watches (gitlabEnv.live.maxWatchesPerAgent))',
        'Polled instead of watched: PodDisruptionBudget (No objects yet; watched once some appear)',
      ]),
    );

    stream.close();
    expect(
      await within(panel).findByRole('status', {
        name: 'Updates: Reconnecting…',
      }),
    ).toBeInTheDocument();
    expect(
      within(panel).getByText('The backend closed the stream.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1].request.headers.get('last-event-id')).not.toBeNull();
    streams[1].send({ type: 'heartbeat', at: new Date().toISOString() });
    expect(
      await within(panel).findByRole('status', { name: 'Updates: Live' }),
    ).toBeInTheDocument();
    // The data held stayed on screen throughout.
    expect(within(panel).getByText('web-5d8f-a')).toBeInTheDocument();
  });

  it('pauses: the stream closes, the data stays, and the indicator says so', async () => {
    const { panel, stream } = await openProductionLive();
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Live updates' }),
    );
    expect(
      await within(panel).findByRole('status', { name: 'Updates: Paused' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(stream.request.signal.aborted).toBe(true));
    expect(within(panel).getByText('web-5d8f-a')).toBeInTheDocument();
  });

  it('falls back to polling the resources route when no event gets through, and says why', async () => {
    serve({ resources: true });
    await renderTab({
      route: '/?env=production',
      refreshIntervalMs: 5000,
      live: { firstEventTimeoutMs: 200 },
    });
    const panel = await screen.findByRole('region', {
      name: 'Resources of production',
    });
    expect(
      await within(panel).findByRole('status', {
        name: 'Updates: Polling every 5 s',
      }),
    ).toBeInTheDocument();
    expect(
      within(panel).getByText(/probably buffers event streams/),
    ).toBeInTheDocument();
    expect(await within(panel).findByText('web-5d8f-a')).toBeInTheDocument();
    expect(
      screen.getByRole('checkbox', { name: 'Auto-refresh (5 s)' }),
    ).toBeChecked();
  });

  it('names on the card and in the panel why the stream cannot follow an environment', async () => {
    const shop = serve();
    await renderTab({ route: '/?env=staging' });
    await waitFor(() => expect(shop.streams).toHaveLength(1));
    for (const [slug, env] of shop.envs) {
      if (slug === 'staging') {
        shop.streams[0].send({
          type: 'error',
          key: env.key,
          error: { code: 'NO_AGENT', message: 'No agent deployed to staging.' },
        });
      } else shop.streams[0].send(env.snapshot());
    }
    const card = await screen.findByRole('region', { name: 'staging' });
    expect(
      await within(card).findByText(ERROR_CATALOG.NO_AGENT.title),
    ).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: 'Resources of staging' });
    expect(
      within(panel).getByText('No agent deployed to staging.'),
    ).toBeInTheDocument();
  });

  it("shows each card's own state: the others' health while one agent still connects, then its cause; the graph opens on the one most needing attention", async () => {
    const shop = serve();
    await renderTab();
    // The list alone: every card, each connecting to its agent.
    const card = (name: string) => screen.getByRole('region', { name });
    await screen.findByRole('region', { name: 'production' });
    for (const name of ['production', 'staging', 'feature-a']) {
      expect(
        within(card(name)).getByTestId('environment-connecting'),
      ).toHaveTextContent('Connecting to agent prod-agent…');
    }
    await waitFor(() => expect(shop.streams).toHaveLength(1));
    // Every environment but staging answers; staging's agent keeps the
    // stream waiting, and holds nothing.
    for (const [slug, env] of shop.envs)
      if (slug !== 'staging') shop.streams[0].send(env.snapshot());
    await waitFor(() =>
      expect(
        within(card('production')).getByRole('status', {
          name: /^Health: Healthy/,
        }),
      ).toBeInTheDocument(),
    );
    expect(
      within(card('feature-a')).getByRole('status', { name: /^Health: / }),
    ).toBeInTheDocument();
    expect(
      within(card('staging')).getByTestId('environment-connecting'),
    ).toBeInTheDocument();
    // An agent still connecting does not keep the graph away for long: the
    // tab opens on what it has.
    expect(
      await screen.findByRole(
        'region',
        { name: 'Resources of production' },
        { timeout: CHOICE_WAITS_FOR_HEALTH_MS + 5_000 },
      ),
    ).toBeInTheDocument();
    // Then staging's cause arrives, on its card only.
    shop.streams[0].send({
      type: 'error',
      key: shop.envs.get('staging')!.key,
      error: {
        code: 'AGENT_NOT_CONNECTED',
        message:
          'The agent prod-agent is not connected to GitLab: its agentk last connected 2 hours ago (2026-03-01T10:00:00Z), so KAS cannot reach its cluster. GitLab says so; KAS was not asked.',
      },
    });
    const cause = await within(card('staging')).findByText(
      ERROR_CATALOG.AGENT_NOT_CONNECTED.title,
    );
    expect(cause.closest('[data-error-code]')).toHaveAttribute(
      'data-error-code',
      'AGENT_NOT_CONNECTED',
    );
    expect(
      within(card('staging')).queryByTestId('environment-connecting'),
    ).not.toBeInTheDocument();
    expect(
      within(card('production')).getByRole('status', { name: /^Health: / }),
    ).toBeInTheDocument();
  });

  it('opens on the environment most needing attention once every card has its health', async () => {
    const shop = serve();
    await renderTab();
    await waitFor(() => expect(shop.streams).toHaveLength(1));
    // Staging's pod crash-loops before the stream starts: its snapshot is Degraded.
    const staging = shop.envs.get('staging')!;
    staging.patch({
      type: 'MODIFIED',
      object: crashLooping(staging.object('Pod', 'web-5d8f-a')),
    });
    for (const env of shop.envs.values()) shop.streams[0].send(env.snapshot());
    // Staging is the only Degraded one: opened though production comes first.
    await waitFor(() => expect(addressQuery()).toBe('?env=staging'), {
      timeout: 5000,
    });
    expect(
      await screen.findByRole('region', { name: 'Resources of staging' }),
    ).toBeInTheDocument();
  });
});
