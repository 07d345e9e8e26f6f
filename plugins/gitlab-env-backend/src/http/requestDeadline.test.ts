import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import {
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
  GitlabEnvErrorResponse,
  StaleNamespacesResponse,
  StaleNamespacesStreamLine,
  VersionsResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import {
  loopbackPassthrough,
  startBackendOnFakeGitlab,
} from '../__testUtils__/backendOnFakeGitlab';
import {
  GITLAB_URL,
  gitlabGraphql,
  item,
  KAS_URL,
  kasCluster,
} from '../__testUtils__/fakeGitlab';
import { appEntity } from '../__testUtils__/serviceFixture';

/**
 * A request answers by its deadline (gitlabEnv.requestDeadlineMs) counted
 * from when it came, however its time is split between the request
 * pipeline's steps, and a wait that cannot change the answer does not
 * hold it. Each case has an upstream still on its way when the answer must
 * come; the order of the two is what is asserted.
 */
const server = setupServer(loopbackPassthrough);
registerMswTestHooks(server);

const DEADLINE_MS = 3_000;
/** How long GitLab holds the locate step's GraphQL query. */
const LOCATE_MS = (DEADLINE_MS * 3) / 5;
/** How long the Pods' list takes to arrive once its headers came. */
const TRICKLE_MS = (DEADLINE_MS * 4) / 5;
const CHUNKS = 12;

const APP = '/api/gitlab-env/entity/default/component/app';

function startBackend(settings: Record<string, unknown> = {}) {
  return startBackendOnFakeGitlab({
    entities: [appEntity],
    gitlabEnv: {
      // Only the request's deadline ends the slow answers, not an attempt's timeout.
      requestTimeoutMs: 60_000,
      requestDeadlineMs: DEADLINE_MS,
      ...settings,
    },
  });
}

/** What a test left pending upstream, ended with it. */
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * GitLab holds each GraphQL query of `operation` (of project `fullPath`
 * when given) for `ms`, then answers it (the handler falls through to
 * gitlabGraphql's); `answered` says whether it has.
 */
function slowGitlab(operation: string, ms: number, fullPath?: string) {
  const state = { answered: false };
  let testOver = () => {};
  const over = new Promise<void>(resolve => {
    testOver = resolve;
  });
  cleanups.push(testOver);
  server.use(
    http.post(`${GITLAB_URL}/api/graphql`, async ({ request: asked }) => {
      const { query, variables } = (await asked.clone().json()) as {
        query: string;
        variables?: { fullPath?: string };
      };
      if (!query.includes(`query ${operation}(`)) return undefined;
      if (fullPath && variables?.fullPath !== fullPath) return undefined;
      const ended = await Promise.race([
        delay(ms).then(() => false),
        over.then(() => true),
      ]);
      state.answered = true;
      return ended
        ? HttpResponse.json({ errors: [{ message: 'The test is over.' }] })
        : undefined;
    }),
  );
  return state;
}

/**
 * KAS sends the list at `path` a few bytes at a time over `ms` once its
 * headers came; `done` says whether all of it came.
 */
function tricklingList(path: string, list: object, ms: number) {
  const state = { done: false };
  const bytes = Buffer.from(JSON.stringify(list));
  const size = Math.ceil(bytes.length / CHUNKS);
  const trickle = () => {
    let timer: NodeJS.Timeout | undefined;
    cleanups.push(() => clearInterval(timer));
    return new ReadableStream<Uint8Array>({
      start(controller) {
        let offset = 0;
        timer = setInterval(() => {
          controller.enqueue(bytes.subarray(offset, offset + size));
          offset += size;
          if (offset >= bytes.length) {
            clearInterval(timer);
            state.done = true;
            controller.close();
          }
        }, ms / CHUNKS);
      },
      cancel() {
        clearInterval(timer);
      },
    });
  };
  server.use(
    http.get(
      `${KAS_URL}${path}`,
      () =>
        new HttpResponse(trickle(), {
          headers: {
            'content-type': 'application/json',
            'content-length': String(bytes.length),
          },
        }),
      { once: true },
    ),
  );
  return state;
}

/** The Pods' list (one Pod, `web`), trickling in over `ms`. */
function tricklingPods(ms: number) {
  return tricklingList(
    '/api/v1/namespaces/app/pods',
    {
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '1' },
      items: [item('web')],
    },
    ms,
  );
}

describe('the request deadline, whatever step its time goes to', () => {
  beforeEach(() => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { 'apps/deployments': [item('web')] } }),
    );
  });

  it('an environment located slowly answers with the deadline’s typed error while its Pods’ list still trickles in', async () => {
    slowGitlab('GitlabEnvByPath', LOCATE_MS);
    const pods = tricklingPods(TRICKLE_MS);
    const backend = await startBackend();
    const res = await request(backend).get(
      `${APP}/environments/production/resources`,
    );
    expect(pods.done).toBe(false);
    expect(res.status).toBe(504);
    const { gitlabEnv } = res.body as GitlabEnvErrorResponse;
    expect(gitlabEnv.code).toBe('UPSTREAM_TIMEOUT');
    expect(gitlabEnv.message).toContain('deadline');
  });

  it('the environments list with health answers by then too, the card saying why it has no health', async () => {
    slowGitlab('GitlabEnvByPath', LOCATE_MS);
    const pods = tricklingPods(TRICKLE_MS);
    const backend = await startBackend();
    const res = await request(backend).get(
      `${APP}/environments?withHealth=true`,
    );
    expect(pods.done).toBe(false);
    expect(res.status).toBe(200);
    const [production] = (res.body as EntityEnvironmentsResponse).environments;
    expect(production.name).toBe('production');
    expect(production.health).toBeUndefined();
    expect(production.errors).toEqual([
      expect.objectContaining({ code: 'UPSTREAM_TIMEOUT' }),
    ]);
  });

  it(
    'a read that outlived what GitLab said of its agent answers with its data, without asking GitLab again',
    async () => {
      // What GitLab said is kept 1 s: the read, slower, finds it expired
      // when its discovery ends.
      const backend = await startBackend({
        cacheTtlSeconds: 1,
        transientCacheSeconds: 0.05,
      });
      server.use(
        http.get(
          `${KAS_URL}/apis`,
          async () => {
            await delay(2_000);
          },
          { once: true },
        ),
        http.get(`${KAS_URL}/api/v1/namespaces/app/pods`, () =>
          HttpResponse.json({ kind: 'PodList', items: [item('web')] }),
        ),
      );
      const activity = slowGitlab('GitlabEnvAgentActivity', 2 * DEADLINE_MS);
      const res = await request(backend).get(
        `${APP}/environments/production/resources`,
      );
      expect(activity.answered).toBe(false);
      expect(res.status).toBe(200);
      const body = res.body as EnvironmentResourcesResponse;
      expect(
        body.resources.filter(r => r.kind === 'Pod').map(r => r.metadata?.name),
      ).toEqual(['web']);
      // Longer than GitLab's hold: a wait for it fails the assertions, not the clock.
    },
    4 * DEADLINE_MS,
  );
});

describe('the request deadline shared by every entity a call reads', () => {
  /** Two entities of one system: `app` (acme/app) and `slow` (acme/slow). */
  const inShop = (name: string, project: string): Entity => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name,
      namespace: 'default',
      annotations: { 'gitlab.com/project-slug': project },
    },
    spec: { system: 'shop' },
  });

  function startShop() {
    return startBackendOnFakeGitlab({
      entities: [inShop('app', 'acme/app'), inShop('slow', 'acme/slow')],
      gitlabEnv: { requestTimeoutMs: 60_000, requestDeadlineMs: DEADLINE_MS },
    });
  }

  beforeEach(() => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { 'apps/deployments': [item('web')] } }),
    );
    // `slow` is never located before the deadline; `app` is, late.
    slowGitlab('GitlabEnvByPath', 3 * DEADLINE_MS, 'acme/slow');
    slowGitlab('GitlabEnvByPath', LOCATE_MS, 'acme/app');
  });

  /**
   * The portal's stale namespaces, as `accept` asks, while the agent's
   * namespaces trickle in past the deadline even from the request's start.
   */
  async function staleNamespaces(accept: string) {
    const namespaces = tricklingList(
      '/api/v1/namespaces',
      { kind: 'NamespaceList', apiVersion: 'v1', items: [] },
      2 * DEADLINE_MS,
    );
    const res = await request(await startShop())
      .get('/api/gitlab-env/ci-access/stale-namespaces')
      .set('accept', accept)
      .buffer(true)
      .parse((response, callback) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => callback(null, text));
      });
    return { namespaces, status: res.status, text: res.body as string };
  }

  it('a system’s versions answer by then: what loaded, the rest as the deadline’s typed error', async () => {
    const pods = tricklingPods(TRICKLE_MS);
    const backend = await startShop();
    const res = await request(backend).get(
      '/api/gitlab-env/versions?system=shop',
    );
    expect(pods.done).toBe(false);
    expect(res.status).toBe(200);
    const byRef = new Map(
      (res.body as VersionsResponse).entities.map(e => [e.entityRef, e]),
    );
    const app = byRef.get('component:default/app')!;
    expect(app.project?.fullPath).toBe('acme/app');
    expect(app.environments.map(e => e.environment.name)).toEqual([
      'production',
    ]);
    expect(app.environments[0].errors).toEqual([
      expect.objectContaining({ code: 'UPSTREAM_TIMEOUT' }),
    ]);
    expect(byRef.get('component:default/slow')!.errors).toEqual([
      expect.objectContaining({ code: 'UPSTREAM_TIMEOUT' }),
    ]);
  });

  it(
    'the portal’s stale namespaces answered at once do too, each entity and agent not read by then named with the typed error',
    async () => {
      const { namespaces, status, text } = await staleNamespaces(
        'application/json',
      );
      expect(namespaces.done).toBe(false);
      expect(status).toBe(200);
      const { errors } = JSON.parse(text) as StaleNamespacesResponse;
      expect(
        errors
          .map(e => ({
            entityRef: e.entityRef,
            agent: e.agent,
            code: e.error.code,
          }))
          .sort((a, b) => (a.entityRef ?? '').localeCompare(b.entityRef ?? '')),
      ).toEqual([
        {
          entityRef: 'component:default/app',
          agent: 'agent-1',
          code: 'UPSTREAM_TIMEOUT',
        },
        { entityRef: 'component:default/slow', code: 'UPSTREAM_TIMEOUT' },
      ]);
      // Longer than the namespaces' trickle: a wait for it fails the assertions, not the clock.
    },
    4 * DEADLINE_MS,
  );

  it(
    'streamed, they outlast it: the agent read past the deadline is written once it came',
    async () => {
      const { namespaces, text } = await staleNamespaces(
        'application/x-ndjson',
      );
      expect(namespaces.done).toBe(true);
      const lines = text
        .split('\n')
        .filter(Boolean)
        .map(line => JSON.parse(line) as StaleNamespacesStreamLine);
      expect(
        lines.filter(l => l.type === 'agent' || l.type === 'entityError'),
      ).toEqual([
        expect.objectContaining({
          type: 'entityError',
          entityRef: 'component:default/slow',
        }),
        {
          type: 'agent',
          entityRef: 'component:default/app',
          agent: 'agent-1',
          namespaces: [],
        },
      ]);
    },
    4 * DEADLINE_MS,
  );
});
