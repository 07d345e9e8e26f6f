import { DEMO_TOKEN } from '../scenario/generate';
import { useSimulator, withMembership } from '../testing/harness';

// Shapes and errors of https://docs.gitlab.com/api/repository_files/.
const CONFIG = '.gitlab%2Fagents%2Fnonprod%2Fconfig.yaml';

describe('GitLab repository files API', () => {
  const sim = useSimulator();
  const get = (path: string, token: string | null = DEMO_TOKEN) =>
    fetch(`${sim().apiUrl}${path}`, {
      headers: token ? { 'PRIVATE-TOKEN': token } : {},
    });

  it('serves a file raw at the default branch, ref optional (defaults to HEAD)', async () => {
    for (const query of [
      '',
      '?ref=main',
      '?ref=HEAD',
      '?ref=refs%2Fheads%2Fmain',
    ]) {
      const response = await get(
        `/projects/acme%2Finfra/repository/files/${CONFIG}/raw${query}`,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.headers.get('x-gitlab-file-path')).toBe(
        '.gitlab/agents/nonprod/config.yaml',
      );
      expect(await response.text()).toContain('ci_access:');
    }
  });

  it('serves file metadata with base64 content, and requires ref there', async () => {
    const response = await get(
      `/projects/100/repository/files/${CONFIG}?ref=main`,
    );
    const body = await response.json();
    expect(body).toMatchObject({
      file_name: 'config.yaml',
      file_path: '.gitlab/agents/nonprod/config.yaml',
      encoding: 'base64',
      ref: 'main',
      blob_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      commit_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(Buffer.from(body.content, 'base64').toString('utf8')).toContain(
      'ci_access:',
    );
    const noRef = await get(`/projects/100/repository/files/${CONFIG}`);
    expect(noRef.status).toBe(400);
    expect(await noRef.json()).toEqual({ error: 'ref is missing' });
  });

  it('answers 404 File Not Found, 404 Commit Not Found, and 404 for unencoded paths', async () => {
    const missing = await get(
      '/projects/100/repository/files/.gitlab%2Fagents%2Fnope%2Fconfig.yaml/raw',
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 File Not Found' });
    const badRef = await get(
      `/projects/100/repository/files/${CONFIG}/raw?ref=nope`,
    );
    expect(await badRef.json()).toEqual({ message: '404 Commit Not Found' });
    const unencoded = await get(
      '/projects/100/repository/files/.gitlab/agents/nonprod/config.yaml/raw',
    );
    expect(unencoded.status).toBe(404);
    expect(await unencoded.json()).toEqual({ error: '404 Not Found' });
  });

  it('serves files as a test edits them on the running simulator', async () => {
    const files = sim().scenario.projects.find(
      p => p.fullPath === 'acme/infra',
    )!.files;
    const path = '.gitlab/agents/nonprod/config.yaml';
    const original = files[path];
    try {
      delete files[path];
      expect(
        (await get(`/projects/100/repository/files/${CONFIG}/raw`)).status,
      ).toBe(404);
      files[path] = 'user_access: {}\n';
      expect(
        await (
          await get(`/projects/100/repository/files/${CONFIG}/raw`)
        ).text(),
      ).toBe('user_access: {}\n');
    } finally {
      files[path] = original;
    }
  });

  it('answers 404 Project Not Found to callers who cannot see a private project', async () => {
    const outsider = await get(
      `/projects/100/repository/files/${CONFIG}/raw`,
      'glpat-outsider',
    );
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toEqual({ message: '404 Project Not Found' });
    expect(
      (await get(`/projects/100/repository/files/${CONFIG}/raw`, null)).status,
    ).toBe(404);
  });

  it('answers 403 to members below Reporter of a private project (guests cannot read code)', async () => {
    await withMembership(
      sim(),
      { username: 'outsider', path: 'acme/infra', role: 'guest' },
      async () => {
        const guest = await get(
          `/projects/100/repository/files/${CONFIG}/raw`,
          'glpat-outsider',
        );
        expect(guest.status).toBe(403);
        expect(await guest.json()).toEqual({ message: '403 Forbidden' });
      },
    );
  });

  it('streams a large raw file in chunks, its size in X-Gitlab-Size only, and counts what it wrote', async () => {
    const infra = sim().scenario.projects.find(
      p => p.fullPath === 'acme/infra',
    )!;
    const big = 'x'.repeat(3 * 1024 * 1024);
    infra.files['big.yaml'] = big;
    try {
      sim().resetStats();
      const whole = await get('/projects/100/repository/files/big.yaml/raw');
      expect(whole.headers.get('x-gitlab-size')).toBe(String(big.length));
      expect(whole.headers.get('content-length')).toBeNull();
      expect((await whole.text()).length).toBe(big.length);
      expect(sim().stats().repositoryFileBytes).toBe(big.length);

      // A client that stops reading stops the transfer: past the socket
      // buffers (Linux: up to 4 MiB sent on loopback), nothing more is written.
      const huge = 'x'.repeat(24 * 1024 * 1024);
      infra.files['big.yaml'] = huge;
      sim().resetStats();
      const head = await get('/projects/100/repository/files/big.yaml/raw');
      await head.body?.cancel();
      // Room for a server that ignored backpressure to go on writing; a slow
      // machine only writes less in it, so no speed is assumed.
      await new Promise(resolve => setTimeout(resolve, 100));
      expect(sim().stats().repositoryFileBytes).toBeLessThan(huge.length / 3);
    } finally {
      delete infra.files['big.yaml'];
    }
    // Tens of megabytes hashed and sent through loopback: on a loaded shared
    // machine that outlasts jest's 5 s default, which would time it, not
    // catch a hang.
  }, 60_000);
});
