import { restJson, useSimulator, withMembership } from '../testing/harness';

const CHECKOUT = '/projects/acme%2Fshop%2Fcheckout-api';

describe('commits, comparisons and merge requests (doc/api/repositories.md, commits.md, merge_requests.md)', () => {
  const sim = useSimulator({ tickMs: 0 });
  const rest = (path: string, token?: string) => restJson(sim(), path, token);

  it('compares two releases: the commits between them oldest first, and the diffs from the merge base', async () => {
    const { status, body } = await rest(
      `${CHECKOUT}/repository/compare?from=v3.8.0&to=v3.8.2`,
    );
    expect(status).toBe(200);
    expect(body.commits.map((c: any) => c.title)).toEqual([
      'Retry captures with exponential back-off',
      "Merge branch 'capture-backoff' into 'main'",
      'Release 3.8.1',
      'Log JSON lines',
      "Merge branch 'structured-logs' into 'main'",
      'Release 3.8.2',
    ]);
    expect(body.commit).toEqual(body.commits[body.commits.length - 1]);
    expect(body.commits[0]).toMatchObject({
      short_id: expect.stringMatching(/^[0-9a-f]{8}$/),
      author_name: 'Bob Builder',
      author_email: 'bob@example.com',
      parent_ids: [expect.stringMatching(/^[0-9a-f]{40}$/)],
      web_url: expect.stringContaining('/acme/shop/checkout-api/-/commit/'),
    });
    expect(body.diffs.map((d: any) => [d.new_path, d.new_file])).toEqual([
      ['VERSION', false],
      ['src/log.ts', true],
      ['src/retry.ts', true],
    ]);
    expect(body.diffs[0]).toEqual({
      old_path: 'VERSION',
      new_path: 'VERSION',
      a_mode: '100644',
      b_mode: '100644',
      new_file: false,
      renamed_file: false,
      deleted_file: false,
      diff: '@@ -1 +1 @@\n-3.8.0\n+3.8.2\n',
      collapsed: false,
      generated_file: false,
    });
    expect(body).toMatchObject({
      compare_timeout: false,
      compare_same_ref: false,
      web_url: `${sim().url}/acme/shop/checkout-api/-/compare/v3.8.0...v3.8.2`,
    });
  });

  it('compares a branch with the default branch from the merge base, or straight from the other side', async () => {
    const mergeBase = await rest(
      `${CHECKOUT}/repository/compare?from=main&to=eu-launch`,
    );
    expect(mergeBase.body.commits.map((c: any) => c.short_id)).toEqual([
      'e0a1b2c3',
      'f1e2d3c4',
    ]);
    expect(mergeBase.body.diffs.map((d: any) => d.new_path)).toEqual([
      'deploy/production/config.yaml',
      'deploy/production/kustomization.yaml',
      'deploy/production/pdb.yaml',
      'deploy/production/service.yaml',
    ]);
    // Straight: main's own later changes show as reverted.
    const straight = await rest(
      `${CHECKOUT}/repository/compare?from=main&to=eu-launch&straight=true`,
    );
    expect(straight.body.diffs.map((d: any) => d.new_path)).toContain(
      'src/captures.ts',
    );
    const same = await rest(`${CHECKOUT}/repository/compare?from=main&to=main`);
    expect(same.body).toMatchObject({
      commit: null,
      commits: [],
      diffs: [],
      compare_same_ref: true,
    });
    const unified = await rest(
      `${CHECKOUT}/repository/compare?from=v3.8.0&to=v3.8.2&unidiff=true`,
    );
    expect(unified.body.diffs[1].diff).toMatch(
      /^--- \/dev\/null\n\+\+\+ b\/src\/log\.ts\n@@ -0,0 \+1 @@/,
    );
  });

  it('answers 400 for missing refs, 404 Ref Not Found for unknown ones, 403 below Reporter', async () => {
    expect(await rest(`${CHECKOUT}/repository/compare`)).toMatchObject({
      status: 400,
      body: { error: 'from is missing, to is missing' },
    });
    expect(
      await rest(`${CHECKOUT}/repository/compare?from=main&to=nope`),
    ).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } });
    expect(
      await rest(
        `${CHECKOUT}/repository/compare?from=main&to=main&from_project_id=101`,
      ),
    ).toMatchObject({
      status: 400,
      body: {
        message: 'Target project id:101 is not a fork of project id:102',
      },
    });
    await withMembership(
      sim(),
      { username: 'outsider', path: 'acme/shop/checkout-api', role: 'guest' },
      async () =>
        expect(
          await rest(
            `${CHECKOUT}/repository/compare?from=main&to=main`,
            'glpat-outsider',
          ),
        ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } }),
    );
  });

  it('finds the merge requests of a commit, and a commit with its stats', async () => {
    const mrs = await rest(
      `${CHECKOUT}/repository/commits/e0a1b2c3/merge_requests`,
    );
    expect(
      mrs.body.map((mr: any) => [mr.iid, mr.state, mr.source_branch]),
    ).toEqual([[57, 'opened', 'eu-launch']]);
    const commit = await rest(`${CHECKOUT}/repository/commits/v3.8.2`);
    expect(commit.body).toMatchObject({
      short_id: '5d6e7f80',
      title: 'Release 3.8.2',
      stats: { additions: 1, deletions: 1, total: 2 },
    });
    expect(
      (await rest(`${CHECKOUT}/repository/commits/0badc0de`)).body,
    ).toEqual({ message: '404 Commit Not Found' });
  });

  it('lists merge requests by state, with what an open one changes in the manifests Flux applies', async () => {
    const opened = await rest(`${CHECKOUT}/merge_requests?state=opened`);
    expect(opened.body.map((mr: any) => mr.iid)).toEqual([57]);
    const merged = await rest(
      `${CHECKOUT}/merge_requests?state=merged&per_page=2`,
    );
    expect(merged.headers.get('x-total')).toBe('4');
    expect(merged.body[0]).toMatchObject({
      iid: 55,
      state: 'merged',
      merged_by: { username: 'alice' },
      merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      references: { full: 'acme/shop/checkout-api!55' },
    });
    expect((await rest(`${CHECKOUT}/merge_requests?state=draft`)).body).toEqual(
      { error: 'state does not have a valid value' },
    );
    const mr = (await rest(`${CHECKOUT}/merge_requests/57`)).body;
    expect(mr.diff_refs).toEqual({
      base_sha: '5d6e7f8000000000000000000000000000000000',
      head_sha: mr.sha,
      start_sha: expect.stringMatching(/^ef901234/),
    });
    const diffs = await rest(`${CHECKOUT}/merge_requests/57/diffs?per_page=2`);
    expect(diffs.headers.get('x-total')).toBe('4');
    expect(diffs.body[0]).toMatchObject({
      new_path: 'deploy/production/config.yaml',
      diff: expect.stringContaining(
        '-  CURRENCY: USD\n+  CURRENCY: EUR\n+  FX_PROVIDER: ecb\n',
      ),
    });
    // The repository files API serves the manifests at the merge request's head.
    const config = await rest(
      `${CHECKOUT}/repository/files/deploy%2Fproduction%2Fconfig.yaml/raw?ref=${mr.sha}`,
    );
    expect(config.body).toContain('CURRENCY: EUR');
    const applied = await rest(
      `${CHECKOUT}/repository/files/deploy%2Fproduction%2Fconfig.yaml/raw?ref=5d6e7f8000000000000000000000000000000000`,
    );
    expect(applied.body).toContain('CURRENCY: USD');
    const pdb = await rest(
      `${CHECKOUT}/repository/files/deploy%2Fproduction%2Fpdb.yaml?ref=${mr.sha}`,
    );
    expect(pdb.body).toMatchObject({
      commit_id: mr.sha,
      last_commit_id: mr.sha,
    });
    expect(
      (
        await rest(
          `${CHECKOUT}/repository/files/deploy%2Fproduction%2Fpdb.yaml?ref=main`,
        )
      ).status,
    ).toBe(404);
    const commits = await rest(`${CHECKOUT}/merge_requests/57/commits`);
    expect(commits.body.map((c: any) => c.short_id)).toEqual([
      'f1e2d3c4',
      'e0a1b2c3',
    ]);
  });
});
