import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import {
  EngineEnvironment,
  TestLiveStream,
  crashLooping,
  liveShopResources,
  openLiveStream,
  podOf,
} from '../../__testUtils__/liveStream';
import { GitlabEnvClient } from '../GitlabEnvClient';
import {
  GitlabEnvLiveClient,
  GitlabEnvLiveClientOptions,
} from './GitlabEnvLiveClient';
import { LiveEnvironmentState } from './GitlabEnvLiveApi';

const server = setupServer();
registerMswTestHooks(server);

const BASE = 'http://backstage.test/api/gitlab-env';
const discoveryApi = { getBaseUrl: async () => BASE };
const fetchApi = {
  fetch: (input: any, init?: RequestInit) =>
    fetch(input, {
      ...init,
      headers: { ...(init?.headers as object), authorization: 'Bearer user' },
    }),
};
const gitlabEnvApi = new GitlabEnvClient({ discoveryApi, fetchApi });

function client(options: GitlabEnvLiveClientOptions = {}) {
  return new GitlabEnvLiveClient({
    discoveryApi,
    fetchApi,
    gitlabEnvApi,
    options: {
      settleMs: 5,
      initialBackoffMs: 20,
      maxBackoffMs: 40,
      ...options,
    },
  });
}

/** Serves the live route, handing each opened stream to the test. */
function serveLive() {
  const streams: TestLiveStream[] = [];
  server.use(
    http.get(`${BASE}/live`, ({ request }) => {
      const stream = openLiveStream(request);
      streams.push(stream);
      return stream.response;
    }),
  );
  return streams;
}

function follow(live: GitlabEnvLiveClient, env: EngineEnvironment) {
  const states: LiveEnvironmentState[] = [];
  const stop = live.follow(env.key, state => states.push(state));
  return { states, stop, last: () => states[states.length - 1] };
}

const paramsOf = (stream: TestLiveStream) =>
  new URL(stream.request.url).searchParams;

/** The patch of a new pod `web-5d8f-c` of the shop's ReplicaSet. */
function podAdded(env: EngineEnvironment) {
  const rs = env.object('ReplicaSet', 'web-5d8f');
  return env.patch({ type: 'ADDED', object: podOf(rs, 'web-5d8f-c') });
}

const until = async (check: () => unknown, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise(r => setTimeout(r, 5));
  }
};

describe('GitlabEnvLiveClient', () => {
  const stops: Array<() => void> = [];
  afterEach(() => stops.splice(0).forEach(stop => stop()));

  it('opens one authenticated stream for every followed environment and applies snapshots and patches', async () => {
    const streams = serveLive();
    const live = client();
    const prod = new EngineEnvironment(liveShopResources());
    const staging = new EngineEnvironment(liveShopResources(), 'staging');
    const a = follow(live, prod);
    const b = follow(live, staging);
    stops.push(a.stop, b.stop);
    await until(() => streams.length === 1);
    const url = new URL(streams[0].request.url);
    expect(url.searchParams.getAll('environment')).toEqual([
      'component:default/storefront/production',
      'component:default/storefront/staging',
    ]);
    expect(streams[0].request.headers.get('authorization')).toBe('Bearer user');
    expect(streams[0].request.headers.get('accept')).toBe('text/event-stream');
    // The compact tree the graph draws, not whole objects.
    expect(url.searchParams.get('form')).toBe('tree');

    streams[0].send(prod.snapshot('2026-01-01T10:00:00Z'));
    streams[0].send(staging.snapshot());
    await until(() => a.last()?.tree && b.last()?.tree);
    expect(a.last().connection.mode).toBe('live');
    expect(a.last().dataAt).toBe('2026-01-01T10:00:00Z');

    const pod = prod.object('Pod', 'web-5d8f-a');
    streams[0].send(
      prod.patch(
        { type: 'MODIFIED', object: crashLooping(pod) },
        '2026-01-01T10:00:05Z',
      ),
    );
    await until(() => a.last().dataAt === '2026-01-01T10:00:05Z');
    expect(a.last().tree!.health).toEqual(prod.engine.health());
    expect(a.last().tree!.health.status).toBe('Degraded');
    expect(a.last().tree!.graph.nodes).toEqual(prod.expected().graph.nodes);
    // The other environment is untouched.
    expect(b.last().tree!.health.status).toBe('Healthy');
    expect(streams).toHaveLength(1);
  });

  it('reconnects with back-off after the stream drops, sending Last-Event-ID, and resumes with patches', async () => {
    const streams = serveLive();
    const live = client();
    const prod = new EngineEnvironment(liveShopResources());
    const a = follow(live, prod);
    stops.push(a.stop);
    await until(() => streams.length === 1);
    streams[0].send(prod.snapshot(), '41');
    await until(() => a.last()?.tree);
    streams[0].close();
    await until(() => a.last().connection.mode === 'reconnecting');
    await until(() => streams.length === 2);
    expect(streams[1].request.headers.get('last-event-id')).toBe('41');
    streams[1].send(podAdded(prod), '42');
    await until(() => a.last().tree!.graph.nodes.length === 6);
    expect(a.last().connection.mode).toBe('live');
    expect(a.last().tree!.graph.nodes.map(n => n.id)).toContain(
      '/Pod/shop/web-5d8f-c',
    );
  });

  it('resumes the environments it holds when the followed set changes and asks a snapshot only for the new one', async () => {
    const streams = serveLive();
    const live = client();
    const prod = new EngineEnvironment(liveShopResources());
    const staging = new EngineEnvironment(liveShopResources(), 'staging');
    const a = follow(live, prod);
    stops.push(a.stop);
    await until(() => streams.length === 1);
    streams[0].send(prod.snapshot(), '41');
    await until(() => a.last()?.tree);

    const b = follow(live, staging);
    await until(() => streams.length === 2);
    expect(paramsOf(streams[1]).getAll('resume')).toEqual([
      'component:default/storefront/production',
    ]);
    expect(paramsOf(streams[1]).getAll('environment')).toEqual([
      'component:default/storefront/staging',
    ]);
    expect(streams[1].request.headers.get('last-event-id')).toBe('41');
    // The backend replays what production missed and snapshots staging.
    streams[1].send(podAdded(prod), null);
    streams[1].send(staging.snapshot(), null);
    streams[1].send({ type: 'heartbeat', at: new Date().toISOString() }, '57');
    await until(() => a.last().tree!.graph.nodes.length === 6);
    await until(() => b.last()?.tree);
    expect(a.last().tree!.graph.nodes).toEqual(prod.expected().graph.nodes);

    // Closing staging's card: production and nothing else, resumed.
    b.stop();
    await until(() => streams.length === 3);
    expect(paramsOf(streams[2]).getAll('resume')).toEqual([
      'component:default/storefront/production',
    ]);
    expect(paramsOf(streams[2]).getAll('environment')).toEqual([]);
    expect(streams[2].request.headers.get('last-event-id')).toBe('57');
    // Opened again, staging is new to the tab: it needs a snapshot.
    const again = follow(live, staging);
    stops.push(again.stop);
    await until(() => streams.length === 4);
    expect(paramsOf(streams[3]).getAll('environment')).toEqual([
      'component:default/storefront/staging',
    ]);
  });

  it('keeps an environment a page stops and follows again at once (an effect that re-runs), resuming it beside the new one', async () => {
    const streams = serveLive();
    const live = client();
    const prod = new EngineEnvironment(liveShopResources());
    const staging = new EngineEnvironment(liveShopResources(), 'staging');
    const a = follow(live, prod);
    await until(() => streams.length === 1);
    streams[0].send(prod.snapshot(), '41');
    await until(() => a.last()?.tree);

    // useLiveEnvironments with a new key: every follow stops, then all
    // the keys are followed again.
    a.stop();
    const again = follow(live, prod);
    const b = follow(live, staging);
    stops.push(again.stop, b.stop);
    expect(again.last().tree).toEqual(a.last().tree);
    await until(() => streams.length === 2);
    expect(paramsOf(streams[1]).getAll('resume')).toEqual([
      'component:default/storefront/production',
    ]);
    expect(paramsOf(streams[1]).getAll('environment')).toEqual([
      'component:default/storefront/staging',
    ]);

    // The same set again: the stream goes on.
    again.stop();
    const third = follow(live, prod);
    stops.push(third.stop);
    await new Promise(r => setTimeout(r, 50));
    expect(streams).toHaveLength(2);
    expect(streams[1].request.signal.aborted).toBe(false);
  });

  it('asks a snapshot again for an environment whose replay was cut before an id, or that the stream refused', async () => {
    const streams = serveLive();
    const live = client();
    const prod = new EngineEnvironment(liveShopResources());
    const staging = new EngineEnvironment(liveShopResources(), 'staging');
    const a = follow(live, prod);
    const b = follow(live, staging);
    stops.push(a.stop, b.stop);
    await until(() => streams.length === 1);
    streams[0].send(prod.snapshot(), null);
    streams[0].send(staging.snapshot(), null);
    streams[0].send({ type: 'heartbeat', at: new Date().toISOString() }, '41');
    await until(() => a.last()?.tree && b.last()?.tree);
    streams[0].close();
    await until(() => streams.length === 2);
    expect(paramsOf(streams[1]).getAll('resume')).toHaveLength(2);
    // Production's replay starts, staging is refused, the stream drops
    // before any id: production holds more than 41 says.
    streams[1].send(podAdded(prod), null);
    streams[1].send(
      {
        type: 'error',
        key: staging.key,
        error: { code: 'NOT_ALLOWED', message: 'Not allowed.' },
      },
      null,
    );
    await until(() => b.last().error);
    streams[1].close();
    await until(() => streams.length === 3);
    expect(paramsOf(streams[2]).getAll('resume')).toEqual([]);
    expect(paramsOf(streams[2]).getAll('environment')).toEqual([
      'component:default/storefront/production',
      'component:default/storefront/staging',
    ]);
    expect(streams[2].request.headers.get('last-event-id')).toBeNull();
  });

  it('treats a stream silent past the heartbeat timeout as dropped; heartbeats keep it open', async () => {
    const streams = serveLive();
    const live = client({ heartbeatTimeoutMs: 150 });
    const prod = new EngineEnvironment(liveShopResources());
    const a = follow(live, prod);
    stops.push(a.stop);
    await until(() => streams.length === 1);
    streams[0].send(prod.snapshot());
    for (let i = 0; i < 4; i++) {
      await new Promise(r => setTimeout(r, 60));
      streams[0].send({ type: 'heartbeat', at: new Date().toISOString() });
    }
    expect(streams).toHaveLength(1);
    await until(() => a.last().connection.mode === 'reconnecting');
    expect(a.last().connection.reason).toMatch(/silent/);
    await until(() => streams.length === 2);
  });

  it('polls the resources route when no byte of the stream gets through in time (a buffering proxy)', async () => {
    const streams = serveLive();
    const prod = new EngineEnvironment(liveShopResources());
    let reads = 0;
    server.use(
      http.get(
        `${BASE}/entity/default/component/storefront/environments/production/resources`,
        () => {
          reads++;
          return HttpResponse.json(prod.resources('2026-01-01T09:00:00Z'));
        },
      ),
    );
    const live = client({ firstEventTimeoutMs: 100, pollIntervalMs: 50 });
    const a = follow(live, prod);
    stops.push(a.stop);
    await until(() => a.last()?.connection.mode === 'polling');
    expect(a.last().connection.reason).toMatch(/buffers event streams/);
    await until(() => reads >= 2);
    expect(a.last().tree!.health).toEqual(prod.engine.health());
    expect(a.last().dataAt).toBe('2026-01-01T09:00:00Z');
    expect(streams).toHaveLength(1);
  });

  it('starts from snapshots when it streams again after polling', async () => {
    const streams = serveLive();
    const prod = new EngineEnvironment(liveShopResources());
    server.use(
      http.get(
        `${BASE}/entity/default/component/storefront/environments/production/resources`,
        () => HttpResponse.json(prod.resources()),
      ),
    );
    const live = client({
      firstEventTimeoutMs: 100,
      pollIntervalMs: 20,
      streamRetryMs: 100,
    });
    const a = follow(live, prod);
    stops.push(a.stop);
    await until(() => streams.length === 1);
    streams[0].send(prod.snapshot(), '41');
    await until(() => a.last()?.tree);
    streams[0].close();
    // The second stream stays silent: the tab polls, then streams again.
    await until(() => a.last().connection.mode === 'polling');
    await until(() => streams.length === 3);
    const url = new URL(streams[2].request.url);
    expect(url.searchParams.getAll('resume')).toEqual([]);
    expect(url.searchParams.getAll('environment')).toEqual([
      'component:default/storefront/production',
    ]);
    expect(streams[2].request.headers.get('last-event-id')).toBeNull();
  });

  it('tries streaming again after polling for a while', async () => {
    let liveRequests = 0;
    server.use(
      http.get(`${BASE}/live`, () => {
        liveRequests++;
        return new HttpResponse(null, { status: 404 });
      }),
    );
    const prod = new EngineEnvironment(liveShopResources());
    server.use(
      http.get(
        `${BASE}/entity/default/component/storefront/environments/production/resources`,
        () => HttpResponse.json(prod.resources()),
      ),
    );
    const a = follow(client({ pollIntervalMs: 20, streamRetryMs: 100 }), prod);
    stops.push(a.stop);
    await until(() => liveRequests >= 3);
    expect(a.last().connection.mode).toBe('polling');
  });

  it('polls when the backend has no live route', async () => {
    server.use(
      http.get(`${BASE}/live`, () => HttpResponse.json({}, { status: 404 })),
    );
    const prod = new EngineEnvironment(liveShopResources());
    server.use(
      http.get(
        `${BASE}/entity/default/component/storefront/environments/production/resources`,
        () => HttpResponse.json(prod.resources()),
      ),
    );
    const a = follow(client(), prod);
    stops.push(a.stop);
    await until(() => a.last()?.tree);
    expect(a.last().connection).toEqual({
      mode: 'polling',
      reason: 'the backend does not serve live updates (HTTP 404)',
    });
  });

  it('polls, naming the reason, when the backend refuses the stream itself (too many environments)', async () => {
    server.use(
      http.get(`${BASE}/live`, () =>
        HttpResponse.json(
          {
            error: { name: 'InputError', message: 'too many' },
            gitlabEnv: {
              code: 'INVALID_REQUEST',
              message: 'The live stream follows at most 50 environments.',
            },
          },
          { status: 400 },
        ),
      ),
    );
    const prod = new EngineEnvironment(liveShopResources());
    server.use(
      http.get(
        `${BASE}/entity/default/component/storefront/environments/production/resources`,
        () => HttpResponse.json(prod.resources()),
      ),
    );
    const a = follow(client(), prod);
    stops.push(a.stop);
    await until(() => a.last()?.tree);
    expect(a.last().connection).toEqual({
      mode: 'polling',
      reason:
        'the backend refused the live stream: The live stream follows at most 50 environments.',
    });
  });

  it('matches the messages to what was followed whatever the case of the kind and namespace', async () => {
    const streams = serveLive();
    const prod = new EngineEnvironment(liveShopResources());
    const a = follow(client(), {
      ...prod,
      key: { entityRef: 'Component:Default/storefront', slug: 'production' },
    } as EngineEnvironment);
    stops.push(a.stop);
    await until(() => streams.length === 1);
    expect(
      new URL(streams[0].request.url).searchParams.get('environment'),
    ).toBe('component:default/storefront/production');
    streams[0].send(prod.snapshot());
    await until(() => a.last()?.tree);
  });

  it('reports an environment the stream refuses, keeps the others, and closes the stream when nothing is followed', async () => {
    const streams = serveLive();
    const live = client();
    const prod = new EngineEnvironment(liveShopResources());
    const a = follow(live, prod);
    await until(() => streams.length === 1);
    streams[0].send({
      type: 'error',
      key: prod.key,
      error: { code: 'PERMISSION_DENIED' as any, message: 'Not allowed.' },
    });
    await until(() => a.last()?.error);
    expect(a.last().error?.message).toBe('Not allowed.');
    a.stop();
    await until(() => streams[0].request.signal.aborted);
  });
});
