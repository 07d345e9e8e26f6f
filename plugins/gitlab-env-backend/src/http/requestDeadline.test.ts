import { registerMswTestHooks } from '@backstage/backend-test-utils';
import {
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
  GitlabEnvErrorResponse,
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
 * GitLab holds each GraphQL query of `operation` for `ms`, then answers it
 * (the handler falls through to gitlabGraphql's); `answered` says whether
 * it has.
 */
function slowGitlab(operation: string, ms: number) {
  const state = { answered: false };
  let testOver = () => {};
  const over = new Promise<void>(resolve => {
    testOver = resolve;
  });
  cleanups.push(testOver);
  server.use(
    http.post(`${GITLAB_URL}/api/graphql`, async ({ request: asked }) => {
      const { query } = (await asked.clone().json()) as { query: string };
      console.log('GQL', Date.now(), query.slice(0, 60).replace(/\s+/g, ' '));
      if (!query.includes(`query ${operation}(`)) return undefined;
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
 * KAS sends the Pods' list (one Pod, `web`) a few bytes at a time over
 * `ms` once its headers came; `done` says whether all of it came.
 */
function tricklingPods(ms: number) {
  const state = { done: false };
  const bytes = Buffer.from(
    JSON.stringify({
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '1' },
      items: [item('web')],
    }),
  );
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
      `${KAS_URL}/api/v1/namespaces/app/pods`,
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
