import {
  mockCredentials,
  mockServices,
  registerMswTestHooks,
} from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
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
  kasCluster,
} from '../__testUtils__/fakeGitlab';
import { entityWith } from '../__testUtils__/serviceFixture';

const server = setupServer(loopbackPassthrough);
registerMswTestHooks(server);

const app = { ...entityWith({ 'gitlab.com/project-slug': 'acme/app' }) };
const bare = {
  ...entityWith({}),
  metadata: { name: 'bare', namespace: 'default' },
};

async function startBackend(
  result: AuthorizeResult = AuthorizeResult.ALLOW,
  auditor = mockServices.auditor.mock(),
) {
  const permissions = mockServices.permissions.mock();
  permissions.authorize.mockImplementation(async requests =>
    requests.map(() => ({ result } as any)),
  );
  const backend = await startBackendOnFakeGitlab({
    entities: [app, bare],
    features: [permissions.factory, auditor.factory],
  });
  return { app: backend, permissions };
}

describe('gitlab-env router', () => {
  beforeEach(() => {
    server.use(
      gitlabGraphql(),
      ...kasCluster({ items: { '/pods': [item('a')] } }),
    );
  });

  it('lists environments (health on request) and reads resources', async () => {
    const { app: backend, permissions } = await startBackend();
    const list = await request(backend).get(
      '/api/gitlab-env/entity/default/component/app/environments',
    );
    expect(list.status).toBe(200);
    // GitLab's alone by default: the cluster data comes per environment.
    expect(list.body.environments[0].name).toBe('production');
    expect(list.body.environments[0].health).toBeUndefined();
    const withHealth = await request(backend).get(
      '/api/gitlab-env/entity/default/component/app/environments?withHealth=true',
    );
    expect(withHealth.body.environments[0]).toMatchObject({
      name: 'production',
      health: { total: 1 },
    });
    expect(permissions.authorize).toHaveBeenCalledWith(
      [
        {
          permission: expect.objectContaining({
            name: 'gitlab-env.resources.read',
          }),
          resourceRef: 'component:default/app',
        },
      ],
      expect.anything(),
    );
    const resources = await request(backend).get(
      '/api/gitlab-env/entity/default/component/app/environments/production/resources',
    );
    expect(resources.status).toBe(200);
    expect(resources.body.resources).toHaveLength(1);
    expect(resources.body.entityRef).toBe('component:default/app');
  });

  it('answers 403 NOT_ALLOWED when the policy denies', async () => {
    const { app: backend } = await startBackend(AuthorizeResult.DENY);
    const res = await request(backend).get(
      '/api/gitlab-env/entity/default/component/app/environments',
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: {
        name: 'NotAllowedError',
        message:
          'You are not allowed to see the environments of component:default/app.',
      },
      gitlabEnv: {
        code: 'NOT_ALLOWED',
        message:
          'You are not allowed to see the environments of component:default/app.',
      },
    });
  });

  it('answers 400 MISSING_ANNOTATION with what to add', async () => {
    const { app: backend } = await startBackend();
    const res = await request(backend).get(
      '/api/gitlab-env/entity/default/component/bare/environments',
    );
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('InputError');
    expect(res.body.gitlabEnv).toMatchObject({
      code: 'MISSING_ANNOTATION',
      hint: expect.stringContaining('gitlab.com/project-slug'),
    });
  });

  it('answers 404 ENTITY_NOT_FOUND for an entity the catalog does not have', async () => {
    const { app: backend } = await startBackend();
    const res = await request(backend).get(
      '/api/gitlab-env/entity/default/component/ghost/environments',
    );
    expect(res.status).toBe(404);
    expect(res.body.error.name).toBe('NotFoundError');
    expect(res.body.gitlabEnv).toMatchObject({
      code: 'ENTITY_NOT_FOUND',
      message: expect.stringContaining('component:default/ghost'),
    });
  });

  it.each([
    [
      'a malformed percent-encoding',
      '/entity/default/component/app%E0%A4%A/environments',
    ],
    [
      'a kind with an encoded slash',
      '/entity/default/comp%2Fonent/app/environments',
    ],
    ['a name with spaces', '/entity/default/component/a%20b/environments'],
    [
      'a slug GitLab never makes',
      '/entity/default/component/app/environments/..%2F..%2Fsecrets/resources',
    ],
  ])(
    'answers 400 INVALID_REQUEST for %s, before any upstream call',
    async (_, path) => {
      const upstream: string[] = [];
      server.events.on('request:start', ({ request: r }) => {
        if (r.url.startsWith(GITLAB_URL)) upstream.push(r.url);
      });
      const { app: backend } = await startBackend();
      const res = await request(backend).get(`/api/gitlab-env${path}`);
      server.events.removeAllListeners();
      expect(res.status).toBe(400);
      expect(res.body.gitlabEnv.code).toBe('INVALID_REQUEST');
      expect(upstream).toEqual([]);
    },
  );

  it('audits a partial read as what it was: its resources and the codes of its gaps', async () => {
    server.use(
      ...kasCluster({
        items: { '/pods': [item('a')] },
        // Not Secrets: refusing those is by design (expectedForbiddenKinds),
        // which leaves the read complete; Deployments the page needs.
        forbidden: ['deployments'],
      }),
    );
    const success = jest.fn();
    const auditor = mockServices.auditor.mock({
      createEvent: jest.fn(async () => ({ success, fail: jest.fn() })),
    });
    const { app: backend } = await startBackend(AuthorizeResult.ALLOW, auditor);
    const res = await request(backend).get(
      '/api/gitlab-env/entity/default/component/app/environments/production/resources',
    );
    expect(res.status).toBe(200);
    expect(success).toHaveBeenCalledWith({
      meta: { resources: 1, partial: true, errors: ['KIND_FORBIDDEN'] },
    });
  });

  it('requires credentials except for /health', async () => {
    const { app: backend } = await startBackend();
    const health = await request(backend)
      .get('/api/gitlab-env/health')
      .set('authorization', mockCredentials.none.header());
    expect(health.status).toBe(200);
    const list = await request(backend)
      .get('/api/gitlab-env/entity/default/component/app/environments')
      .set('authorization', mockCredentials.none.header());
    expect(list.status).toBe(401);
  });
});
