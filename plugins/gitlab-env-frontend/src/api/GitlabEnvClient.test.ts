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
});
