import { registerMswTestHooks } from '@backstage/backend-test-utils';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { failureOf } from '../__testUtils__/serviceFixture';
import { GitlabRestClient, MAX_FILE_BYTES } from './gitlabRest';

/** Repository file reads against a GitLab whose answers are hostile: bounded before and while reading. */
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

/** A body of `total` bytes in 16 KiB chunks that counts what the reader pulled. */
function countedBody(total: number) {
  const pulled = { bytes: 0 };
  const chunk = new Uint8Array(16 * 1024).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) {
        controller.close();
        return;
      }
      pulled.bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
}

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

  it('refuses a file GitLab declares too large without reading its body', async () => {
    const { stream, pulled } = countedBody(26_700_000);
    server.use(
      http.get(
        FILE_URL,
        () =>
          new HttpResponse(stream, {
            headers: { 'X-Gitlab-Size': '26700000' },
          }),
      ),
    );
    const detail = await failureOf(read());
    expect(detail).toMatchObject({
      code: 'AGENT_CONFIG_INVALID',
      file: 'acme/infra: .gitlab/agents/a/config.yaml',
    });
    expect(detail.message).toContain(
      `has 26700000 bytes; at most ${MAX_FILE_BYTES} are read`,
    );
    expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('stops reading at the bound when GitLab does not say the size, or says less', async () => {
    const declared: Array<Record<string, string>> = [
      {},
      { 'X-Gitlab-Size': '100' },
    ];
    for (const headers of declared) {
      const { stream, pulled } = countedBody(26_700_000);
      server.use(
        http.get(FILE_URL, () => new HttpResponse(stream, { headers })),
      );
      const detail = await failureOf(read());
      expect(detail).toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
      expect(detail.message).toContain('has more than');
      expect(pulled.bytes).toBeLessThan(MAX_FILE_BYTES + 128 * 1024);
    }
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
