import {
  EntityEnvironmentsResponse,
  GitlabEnvErrorResponse,
  LiveMessage,
  OverviewStreamLine,
  StaleNamespacesStreamLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  loadDefaultScenario,
  Scenario,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
} from './__testUtils__/backendOnSimulator';
import { openLiveStream, ReceivedEvent } from './__testUtils__/liveStream';
import { forEachBlock } from './__testUtils__/streamBlocks';
import { waitFor } from './__testUtils__/waitFor';
import { GitlabClient } from './transport/gitlabClient';

/**
 * A slow or absent agent never holds a page (issue 25). search-indexer has
 * environments on prod-us, nonprod, lab (never connected) and edge (agentk
 * away). KAS's tunnel search for edge is made to outlast every test here,
 * so anything that waited for it would never answer: each test passes only
 * if its answer did not wait for edge.
 */
const SEARCH_INDEXER = 'component:default/search-indexer';
const searchIndexer = component('search-indexer', {
  'gitlab.com/project-id': '104',
});
const storefront = component('storefront', {
  'gitlab.com/project-slug': 'acme/shop/storefront',
});
jest.setTimeout(30_000);

/** KAS looks for edge's tunnel longer than any test runs. */
const KAS_SEARCH_OUTLASTS_TESTS = { findTimeoutMs: 10 * 60_000 };

/** The default scenario with one more environment on edge, without a namespace in GitLab. */
function scenarioAt(version: string): Scenario {
  const scenario = loadDefaultScenario();
  scenario.instance.version = version;
  const project = scenario.projects.find(
    p => p.fullPath === 'acme/platform/search-indexer',
  )!;
  const development = project.environments.find(e => e.name === 'development')!;
  project.environments.push({
    ...development,
    id: 1049,
    name: 'canary',
    kubernetesNamespace: undefined,
    deployments: [],
  });
  return scenario;
}

type Of<T extends LiveMessage['type']> = Extract<LiveMessage, { type: T }>;
const about = (slug: string) => (e: ReceivedEvent) =>
  'key' in e.message && e.message.key?.slug === slug;

async function start(scenario: Scenario, gitlabEnv = {}) {
  const simulator = await startGitlabSimulator({
    port: 0,
    scenario,
    kasTunnels: KAS_SEARCH_OUTLASTS_TESTS,
  });
  const backend = await startBackendOnSimulator(simulator, {
    entities: [searchIndexer, storefront],
    gitlabEnv: { requestTimeoutMs: 5000, ...gitlabEnv },
  });
  const { port } = backend.server.address() as AddressInfo;
  return {
    simulator,
    backend,
    url: `http://127.0.0.1:${port}`,
    get: (path: string) =>
      request(backend.server).get(`/api/gitlab-env${path}`),
  };
}

/** A streamed route's NDJSON lines, read as they come. */
async function streamedLines<T>(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    signal: controller.signal,
    headers: { accept: 'application/x-ndjson' },
  });
  const lines: T[] = [];
  const reading = forEachBlock(response.body, '\n', line =>
    lines.push(JSON.parse(line)),
  );
  return {
    lines,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

const overviewLines = (url: string) =>
  streamedLines<OverviewStreamLine>(`${url}/api/gitlab-env/overview`);
const cleanUpLines = (url: string) =>
  streamedLines<StaleNamespacesStreamLine>(
    `${url}/api/gitlab-env/ci-access/stale-namespaces`,
  );
const agentLine = (
  lines: StaleNamespacesStreamLine[],
  entityRef: string,
  agent: string,
) =>
  lines.find(
    (l): l is Extract<StaleNamespacesStreamLine, { type: 'agent' }> =>
      l.type === 'agent' && l.entityRef === entityRef && l.agent === agent,
  );

const healthOf = (lines: OverviewStreamLine[], environmentId: string) =>
  lines.find(
    (l): l is Extract<OverviewStreamLine, { type: 'health' }> =>
      l.type === 'health' && l.environmentId === environmentId,
  );

describe('an agent GitLab says nothing about, whose KAS search does not end', () => {
  // Before 17.0 GitLab shows a Reporter of the agents' project neither
  // connections nor tokens: only KAS can tell, and it keeps searching.
  let env: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    env = await start(scenarioAt('16.11.2'));
  });
  afterAll(async () => {
    // First the simulator: KAS's searches for edge end with it.
    await env.simulator.close();
    await env.backend.stop();
  });

  it('the environments list answers from GitLab alone, edge environments included, without their cluster data', async () => {
    const res = await env.get(
      '/entity/default/component/search-indexer/environments',
    );
    expect(res.status).toBe(200);
    const body = res.body as EntityEnvironmentsResponse;
    const bySlug = new Map(body.environments.map(e => [e.slug, e]));
    expect(bySlug.get('development')).toMatchObject({
      agent: { name: 'edge' },
      namespace: 'search-dev',
    });
    // Its namespace would come from edge's cluster: not waited for.
    expect(bySlug.get('canary')).toMatchObject({ agent: { name: 'edge' } });
    expect(bySlug.get('canary')!.namespace).toBeUndefined();
    expect(body.environments.every(e => e.health === undefined)).toBe(true);
  });

  it('the live stream delivers the other environments while edge is still being searched for', async () => {
    const slugs = ['production', 'staging', 'development', 'canary'];
    const stream = await openLiveStream(
      env.url,
      slugs.map(slug => `${SEARCH_INDEXER}/${slug}`),
    );
    try {
      const production = await stream.next(
        e => about('production')(e) && e.message.type === 'snapshot',
      );
      const staging = await stream.next(
        e => about('staging')(e) && e.message.type === 'snapshot',
      );
      expect(
        (production.message as Of<'snapshot'>).resources.resources.length,
      ).toBeGreaterThan(0);
      expect(
        (staging.message as Of<'snapshot'>).resources.scope.namespace,
      ).toBe('search-staging');
      // Edge's environments: nothing yet, and they hold nothing.
      expect(stream.events.filter(about('development'))).toEqual([]);
      expect(stream.events.filter(about('canary'))).toEqual([]);
    } finally {
      await stream.close();
    }
  });

  it("the overview's rows and the other agents' health lines do not wait for edge", async () => {
    const overview = await overviewLines(env.url);
    try {
      // storefront's production/us-region (prod-us) and search-indexer's
      // staging (nonprod) settle; edge's development does not, and holds
      // neither.
      await waitFor(
        () =>
          !!healthOf(overview.lines, '1011') &&
          !!healthOf(overview.lines, '1042'),
        15_000,
      );
      const entities = overview.lines.filter(l => l.type === 'entity');
      expect(entities).toHaveLength(2);
      expect(healthOf(overview.lines, '1011')!.health?.total).toBeGreaterThan(
        0,
      );
      expect(healthOf(overview.lines, '1043')).toBeUndefined();
      expect(overview.lines.some(l => l.type === 'done')).toBe(false);
    } finally {
      await overview.close();
    }
  });

  it("the clean-up list streams the other agents' namespaces while edge is still being searched for", async () => {
    const cleanUp = await cleanUpLines(env.url);
    try {
      await waitFor(
        () =>
          !!agentLine(cleanUp.lines, SEARCH_INDEXER, 'prod-us') &&
          !!agentLine(cleanUp.lines, SEARCH_INDEXER, 'nonprod'),
        15_000,
      );
      expect(cleanUp.lines).toContainEqual({
        type: 'entity',
        entityRef: SEARCH_INDEXER,
        agents: expect.arrayContaining(['edge', 'nonprod', 'prod-us']),
      });
      expect(
        agentLine(cleanUp.lines, SEARCH_INDEXER, 'nonprod')!.error,
      ).toBeUndefined();
      expect(agentLine(cleanUp.lines, SEARCH_INDEXER, 'edge')).toBeUndefined();
      expect(cleanUp.lines.some(l => l.type === 'done')).toBe(false);
    } finally {
      await cleanUp.close();
    }
  });
});

describe('an agent GitLab says is not connected', () => {
  // 17.11: whoever may read edge sees its token, unused for two hours.
  let env: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    // Answers kept briefly, so the test of a reconnecting agent is short.
    env = await start(scenarioAt('17.11.1-ee'), { transientCacheSeconds: 1 });
  });
  afterAll(async () => {
    // First the simulator: KAS's searches for edge end with it.
    await env.simulator.close();
    await env.backend.stop();
  });

  it('is refused at once as AGENT_NOT_CONNECTED, naming its last contact, and KAS is never asked', async () => {
    const res = await env.get(
      '/entity/default/component/search-indexer/environments/development/resources',
    );
    expect(res.status).toBe(503);
    const error = (res.body as GitlabEnvErrorResponse).gitlabEnv;
    expect(error.code).toBe('AGENT_NOT_CONNECTED');
    expect(error.message).toMatch(
      /^The agent edge is not connected to GitLab: its agentk last connected 2 hours ago \(.+\), so KAS cannot reach its cluster\./,
    );
    const lab = await env.get(
      '/entity/default/component/search-indexer/environments/lab/resources',
    );
    expect((lab.body as GitlabEnvErrorResponse).gitlabEnv.code).toBe(
      'AGENT_NEVER_CONNECTED',
    );
    // KAS never looked for a tunnel of edge.
    expect(Object.keys(env.simulator.stats().peakTunnelsInUse)).not.toContain(
      'edge',
    );
  });

  it("says so on the stream, and the environment whose namespace only edge's cluster could give says why", async () => {
    const stream = await openLiveStream(env.url, [
      `${SEARCH_INDEXER}/development`,
      `${SEARCH_INDEXER}/canary`,
    ]);
    try {
      const development = await stream.next(
        e => about('development')(e) && e.message.type === 'error',
      );
      expect((development.message as Of<'error'>).error.code).toBe(
        'AGENT_NOT_CONNECTED',
      );
      const canary = await stream.next(
        e => about('canary')(e) && e.message.type === 'error',
      );
      const { error } = canary.message as Of<'error'>;
      expect(error.code).toBe('NO_NAMESPACE');
      expect(error.message).toContain(
        "Its agent's cluster could not be looked in: The agent edge is not connected to GitLab",
      );
    } finally {
      await stream.close();
    }
  });

  it("the overview's row for edge says not connected and the stream ends", async () => {
    const overview = await overviewLines(env.url);
    try {
      await waitFor(() => overview.lines.some(l => l.type === 'done'), 15_000);
      expect(healthOf(overview.lines, '1043')!.errors[0].code).toBe(
        'AGENT_NOT_CONNECTED',
      );
    } finally {
      await overview.close();
    }
  });

  it('the clean-up list names edge not connected and ends', async () => {
    const cleanUp = await cleanUpLines(env.url);
    try {
      await waitFor(() => cleanUp.lines.some(l => l.type === 'done'), 15_000);
      expect(
        agentLine(cleanUp.lines, SEARCH_INDEXER, 'edge')!.error?.code,
      ).toBe('AGENT_NOT_CONNECTED');
      expect(
        agentLine(cleanUp.lines, SEARCH_INDEXER, 'nonprod')!.error,
      ).toBeUndefined();
    } finally {
      await cleanUp.close();
    }
  });

  it('is read again once agentk is back: the kept answer is checked again in the background', async () => {
    const edge = env.simulator.scenario.agents.find(a => a.name === 'edge')!;
    edge.connected = true;
    try {
      // Each read meanwhile is answered from the kept state, at once; one
      // after the background check reaches the cluster.
      const codes = new Set<string>();
      let status = 0;
      const until = Date.now() + 20_000;
      while (status !== 200 && Date.now() < until) {
        const res = await env.get(
          '/entity/default/component/search-indexer/environments/development/resources',
        );
        status = res.status;
        if (status !== 200) {
          codes.add((res.body as GitlabEnvErrorResponse).gitlabEnv.code);
          await new Promise(r => setTimeout(r, 200));
        }
      }
      expect(status).toBe(200);
      expect([...codes]).toEqual(['AGENT_NOT_CONNECTED']);
    } finally {
      edge.connected = false;
    }
  });
});

describe("GitLab's connection state comes with the environments list", () => {
  // 17.11: the list's query carries each agent's connections and tokens.
  let env: Awaited<ReturnType<typeof start>>;
  const agentActivity = jest.spyOn(GitlabClient.prototype, 'agentActivity');
  beforeEach(async () => {
    agentActivity.mockClear();
    env = await start(scenarioAt('17.11.1-ee'));
  });
  afterEach(async () => {
    await env.simulator.close();
    await env.backend.stop();
  });
  afterAll(() => agentActivity.mockRestore());

  async function readAfterTheList() {
    const list = await env.get(
      '/entity/default/component/search-indexer/environments',
    );
    expect(list.status).toBe(200);
    expect(
      (list.body as EntityEnvironmentsResponse).environments.map(e => e.slug),
    ).toEqual(
      expect.arrayContaining(['production', 'staging', 'development', 'lab']),
    );
    const [development, lab] = await Promise.all(
      ['development', 'lab'].map(slug =>
        env.get(
          `/entity/default/component/search-indexer/environments/${slug}/resources`,
        ),
      ),
    );
    return {
      development: (development.body as GitlabEnvErrorResponse).gitlabEnv,
      lab: (lab.body as GitlabEnvErrorResponse).gitlabEnv,
    };
  }

  it('the reads that follow the list ask GitLab nothing more: edge and lab are refused before KAS is asked', async () => {
    const { development, lab } = await readAfterTheList();
    expect(development.code).toBe('AGENT_NOT_CONNECTED');
    expect(lab.code).toBe('AGENT_NEVER_CONNECTED');
    expect(agentActivity).not.toHaveBeenCalled();
    expect(Object.keys(env.simulator.stats().peakTunnelsInUse)).not.toContain(
      'edge',
    );
  });

  it('GitLab failing to resolve `connections` (KAS down) keeps the list, and the tokens still decide', async () => {
    // GitLab answers the list with `connections: null` and an error beside
    // the data (see the simulator's agentConnections test).
    env.simulator.setFaults({ kasEnabled: false });
    const { development, lab } = await readAfterTheList();
    expect(development.code).toBe('AGENT_NOT_CONNECTED');
    expect(lab.code).toBe('AGENT_NEVER_CONNECTED');
    expect(agentActivity).not.toHaveBeenCalled();
  });
});
