import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { failureOf } from '../__testUtils__/serviceFixture';
import { GitlabRestClient } from './gitlabRest';

/**
 * Repository file reads against a GitLab whose answers are hostile. The
 * bounds before and while reading are in gitlabRest.bounds.test.ts, over a
 * socket.
 */
const server = setupServer();
registerMswTestHooks(server);

const API = 'https://gitlab.test/api/v4';
const FILE_URL = `${API}/projects/acme%2Finfra/repository/files/.gitlab%2Fagents%2Fa%2Fconfig.yaml/raw`;
const client = new GitlabRestClient(
  {
    host: 'gitlab.test',
    baseUrl: 'https://gitlab.test',
    apiBaseUrl: API,
    graphqlUrl: 'https://gitlab.test/api/graphql',
    token: 'glpat-test',
  },
  2_000,
  fn => fn(),
);
const read = () =>
  client.file('acme/infra', '.gitlab/agents/a/config.yaml', 'main');

describe('GitlabRestClient.file', () => {
  it('reads the file raw at the ref as UTF-8 text', async () => {
    let ref: string | null = null;
    server.use(
      http.get(FILE_URL, ({ request }) => {
        ref = new URL(request.url).searchParams.get('ref');
        return new HttpResponse('ci_access: {} # é\n', {
          headers: { 'X-Gitlab-Size': '19' },
        });
      }),
    );
    await expect(read()).resolves.toBe('ci_access: {} # é\n');
    expect(ref).toBe('main');
  });

  it('answers undefined for 404 File Not Found', async () => {
    server.use(
      http.get(FILE_URL, () =>
        HttpResponse.json({ message: '404 File Not Found' }, { status: 404 }),
      ),
    );
    await expect(read()).resolves.toBeUndefined();
  });

  it('refuses a file that is not UTF-8', async () => {
    server.use(
      http.get(
        FILE_URL,
        () => new HttpResponse(new Uint8Array([0x61, 0xff, 0xfe, 0x62])),
      ),
    );
    expect(await failureOf(read())).toMatchObject({
      code: 'AGENT_CONFIG_INVALID',
      message: expect.stringContaining('is not UTF-8'),
    });
  });
});
