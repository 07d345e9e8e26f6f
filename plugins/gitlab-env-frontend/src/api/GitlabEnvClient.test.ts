import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import { GitlabEnvClient } from './GitlabEnvClient';
import { GitlabEnvApiError } from './GitlabEnvApiError';

const server = setupServer();
registerMswTestHooks(server);

const BASE = 'http://backstage.test/api/gitlab-env';
const client = new GitlabEnvClient({
  discoveryApi: { getBaseUrl: async () => BASE },
  fetchApi: { fetch: (input, init) => fetch(input, init) },
});
const entity = { kind: 'Component', namespace: 'Default', name: 'Shop Front' };

describe('GitlabEnvClient', () => {
  it('asks for stopped environments too, so their cards can show collapsed', async () => {
    let query = '';
    server.use(
      http.get(
        `${BASE}/entity/default/component/Shop%20Front/environments`,
        ({ request }) => {
          query = new URL(request.url).search;
          return HttpResponse.json({ environments: [] });
        },
      ),
    );
    await client.getEnvironments(entity);
    expect(query).toBe('?includeStopped=true');
  });

  it('calls the entity routes, encoding the ref', async () => {
    server.use(
      http.get(
        `${BASE}/entity/default/component/Shop%20Front/environments/review%2Fx/resources`,
        () => HttpResponse.json({ ok: true }),
      ),
    );
    await expect(
      client.getEnvironmentResources(entity, 'review/x'),
    ).resolves.toEqual({ ok: true });
  });

  it('throws a GitlabEnvApiError carrying the code and hint of the body', async () => {
    server.use(
      http.get(
        `${BASE}/entity/default/component/Shop%20Front/environments`,
        () =>
          HttpResponse.json(
            {
              error: { name: 'NotFoundError', message: 'nope' },
              gitlabEnv: {
                code: 'PROJECT_NOT_FOUND',
                message: 'Project acme/shop was not found.',
                hint: 'Check gitlab.com/project-slug.',
                upstreamStatus: 404,
              },
            },
            { status: 404 },
          ),
      ),
    );
    const error = await client.getEnvironments(entity).catch(e => e);
    expect(error).toBeInstanceOf(GitlabEnvApiError);
    expect(error).toMatchObject({
      code: 'PROJECT_NOT_FOUND',
      message: 'Project acme/shop was not found.',
      hint: 'Check gitlab.com/project-slug.',
      statusCode: 404,
      detail: { upstreamStatus: 404 },
    });
    expect(error.cause.name).toBe('ResponseError');
  });

  it('keeps failures without a valid code as plain response errors', async () => {
    server.use(
      http.get(
        `${BASE}/entity/default/component/Shop%20Front/environments`,
        () =>
          HttpResponse.json(
            { gitlabEnv: { code: 'NOT_A_CODE', message: 'x' } },
            { status: 500 },
          ),
      ),
    );
    const error = await client.getEnvironments(entity).catch(e => e);
    expect(error).toBeInstanceOf(GitlabEnvApiError);
    expect(error.code).toBeUndefined();
    expect(error.statusCode).toBe(500);
  });

  describe('actions and logs', () => {
    const envUrl = `${BASE}/entity/default/component/Shop%20Front/environments/review%2Fx`;
    const target = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
    };

    it('posts an action as JSON and returns the answer', async () => {
      let body: unknown;
      server.use(
        http.post(`${envUrl}/actions`, async ({ request }) => {
          body = await request.json();
          expect(request.headers.get('content-type')).toBe('application/json');
          return HttpResponse.json({
            outcome: 'changed',
            message: 'ok',
            kubectl: 'k',
          });
        }),
      );
      await expect(
        client.runAction(entity, 'review/x', {
          action: 'workload.scale',
          target,
          replicas: 4,
        }),
      ).resolves.toMatchObject({ outcome: 'changed' });
      expect(body).toEqual({ action: 'workload.scale', target, replicas: 4 });
    });

    it('asks what is allowed for a list of targets', async () => {
      server.use(
        http.post(`${envUrl}/actions/allowed`, async ({ request }) =>
          HttpResponse.json({
            targets: ((await request.json()) as any).targets.map((t: any) => ({
              target: t,
              decisions: {
                'workload.restart': { allowed: false, reason: 'no' },
              },
            })),
          }),
        ),
      );
      const answer = await client.getAllowedActions(entity, 'review/x', {
        targets: [target],
      });
      expect(answer.targets[0].decisions['workload.restart']).toEqual({
        allowed: false,
        reason: 'no',
      });
    });

    it('hands each chunk of a log over as it arrives, with the tail cap the backend applied', async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>(resolve => {
        release = resolve;
      });
      let query = '';
      server.use(
        http.get(`${envUrl}/logs`, ({ request }) => {
          query = new URL(request.url).search;
          const stream = new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode('first\nsec'));
              await gate;
              controller.enqueue(new TextEncoder().encode('ond\n'));
              controller.close();
            },
          });
          return new HttpResponse(stream, {
            headers: { 'x-gitlab-env-log-tail-capped': '5000' },
          });
        }),
      );
      const chunks: string[] = [];
      const opened: Array<{ tailCap?: number }> = [];
      const done = client.streamPodLogs(
        entity,
        'review/x',
        {
          pod: 'web-1',
          namespace: 'shop',
          container: 'app',
          tailLines: 10,
          follow: true,
          previous: false,
        },
        {
          onOpen: info => opened.push(info),
          onText: text => {
            chunks.push(text);
            if (chunks.length === 1) release();
          },
        },
      );
      await done;
      expect(query).toBe(
        '?pod=web-1&namespace=shop&container=app&tailLines=10&follow=true',
      );
      expect(opened).toEqual([{ tailCap: 5000 }]);
      // The first chunk arrived before the stream had more to give.
      expect(chunks).toEqual(['first\nsec', 'ond\n']);
    });

    it('throws the typed error of a refused log read', async () => {
      server.use(
        http.get(`${envUrl}/logs`, () =>
          HttpResponse.json(
            {
              error: { name: 'Error', message: 'forbidden' },
              gitlabEnv: {
                code: 'ACTION_FORBIDDEN',
                message: 'no pods/log',
                hint: 'grant it',
              },
            },
            { status: 403 },
          ),
        ),
      );
      const error = await client
        .streamPodLogs(
          entity,
          'review/x',
          { pod: 'web-1' },
          { onText: () => {} },
        )
        .catch(e => e);
      expect(error).toBeInstanceOf(GitlabEnvApiError);
      expect(error).toMatchObject({
        code: 'ACTION_FORBIDDEN',
        hint: 'grant it',
      });
    });
  });
});
