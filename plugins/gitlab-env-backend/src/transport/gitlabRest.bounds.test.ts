import {
  clientLeft,
  localUpstreams,
  writeEndlessly,
} from '../__testUtils__/localUpstream';
import { failureOf } from '../__testUtils__/serviceFixture';
import { GitlabRestClient, MAX_FILE_BYTES } from './gitlabRest';

/**
 * Repository file reads against a GitLab whose answers are too large:
 * bounded before and while reading. Over a socket, so that a reader that
 * keeps reading or waiting shows as a test that never ends.
 */
const upstreams = localUpstreams();

const read = (url: string) =>
  new GitlabRestClient(
    {
      host: 'gitlab.test',
      baseUrl: url,
      apiBaseUrl: `${url}/api/v4`,
      graphqlUrl: `${url}/api/graphql`,
      token: 'glpat-test',
    },
    2_000,
    fn => fn(),
  ).file('acme/infra', '.gitlab/agents/a/config.yaml', 'main');

describe('GitlabRestClient.file bounds', () => {
  it('refuses a file GitLab declares too large without reading its body', async () => {
    let left: Promise<void> | undefined;
    const upstream = await upstreams.serve((_req, res) => {
      left = clientLeft(res);
      // Headers only: the body never comes, so a reader waiting for it
      // would never finish.
      res.writeHead(200, { 'X-Gitlab-Size': '26700000' });
      res.flushHeaders();
    });
    const detail = await failureOf(read(upstream.url));
    expect(detail).toMatchObject({
      code: 'AGENT_CONFIG_INVALID',
      file: 'acme/infra: .gitlab/agents/a/config.yaml',
    });
    expect(detail.message).toContain(
      `has 26700000 bytes; at most ${MAX_FILE_BYTES} are read`,
    );
    // The connection is dropped, the body unread.
    await left;
  });

  it('stops reading at the bound when GitLab does not say the size, or says less', async () => {
    const declared: Array<Record<string, string>> = [
      {},
      { 'X-Gitlab-Size': '100' },
    ];
    for (const headers of declared) {
      let left: Promise<void> | undefined;
      const upstream = await upstreams.serve((_req, res) => {
        left = clientLeft(res);
        res.writeHead(200, headers);
        writeEndlessly(res, res, new Uint8Array(16 * 1024).fill(0x61));
      });
      const detail = await failureOf(read(upstream.url));
      expect(detail).toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
      expect(detail.message).toContain('has more than');
      await left;
    }
  });
});
