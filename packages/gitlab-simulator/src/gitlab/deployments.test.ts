import { loadDefaultScenario } from '../scenario/load';
import { graphql, restJson, useSimulator } from '../testing/harness';

const CHECKOUT = '/projects/acme%2Fshop%2Fcheckout-api';

describe('deployments: REST (doc/api/deployments.md) and GraphQL Environment.deployments', () => {
  const sim = useSimulator({ tickMs: 0 });
  const rest = (path: string, token?: string) => restJson(sim(), path, token);

  it('lists a project’s deployments with their user, environment and deploy job, ordered and filtered', async () => {
    const { status, body, headers } = await rest(
      `${CHECKOUT}/deployments?environment=production&order_by=created_at&sort=desc`,
    );
    expect(status).toBe(200);
    expect(headers.get('x-total')).toBe('4');
    expect(body.map((d: any) => [d.iid, d.status, d.ref])).toEqual([
      [212, 'success', 'v3.8.2'],
      [209, 'success', 'v3.8.0'],
      [208, 'failed', 'v3.8.1'],
      [205, 'success', 'v3.8.0'],
    ]);
    const [latest] = body;
    expect(latest).toMatchObject({
      sha: '5d6e7f8000000000000000000000000000000000',
      user: { username: 'alice', name: 'Alice Platform' },
      environment: { name: 'production', slug: 'production' },
      deployable: {
        name: 'deploy-production',
        stage: 'deploy',
        status: 'success',
        ref: 'v3.8.2',
        tag: true,
        commit: { short_id: '5d6e7f80', title: 'Release 3.8.2' },
        pipeline: { iid: 318, status: 'success', sha: latest.sha },
        web_url: `${sim().url}/acme/shop/checkout-api/-/jobs/${
          latest.deployable.id
        }`,
      },
    });
    // The rollback re-ran 3.8.0's job: same pipeline, newer job.
    const [, rollback, , first] = body;
    expect(rollback.deployable.pipeline.id).toBe(first.deployable.pipeline.id);
    expect(rollback.deployable.id).toBeGreaterThan(first.deployable.id);
    const failed = await rest(`${CHECKOUT}/deployments?status=failed`);
    expect(failed.body.map((d: any) => d.iid)).toEqual([208, 213]);
    const paged = await rest(`${CHECKOUT}/deployments?per_page=3&page=2`);
    expect(paged.body).toHaveLength(3);
    expect(paged.headers.get('x-page')).toBe('2');
    expect(paged.headers.get('x-next-page')).toBe('3');
  });

  it('refuses what GitLab refuses: invalid values (Grape) and inefficient queries (DeploymentsFinder)', async () => {
    expect(await rest(`${CHECKOUT}/deployments?order_by=ref`)).toMatchObject({
      status: 400,
      body: { error: 'order_by does not have a valid value' },
    });
    expect(await rest(`${CHECKOUT}/deployments?status=done`)).toMatchObject({
      status: 400,
      body: { error: 'status does not have a valid value' },
    });
    expect(
      await rest(`${CHECKOUT}/deployments?order_by=finished_at`),
    ).toMatchObject({
      status: 400,
      body: {
        message:
          '400 Bad request - `finished_at` sort requires `finished_at` filter or a filter with at least one of the finished statuses.',
      },
    });
    expect(
      await rest(
        `${CHECKOUT}/deployments?finished_after=2020-01-01T00:00:00Z&order_by=finished_at&status=failed`,
      ),
    ).toMatchObject({
      status: 400,
      body: {
        message:
          '400 Bad request - `finished_at` filter must be combined with `success` status filter.',
      },
    });
    const recent = await rest(
      `${CHECKOUT}/deployments?finished_after=${new Date(
        Date.now() - 48 * 3600e3,
      ).toISOString()}&order_by=finished_at&sort=desc&status=success&environment=staging`,
    );
    expect(recent.body.map((d: any) => d.iid)).toEqual([215, 210]);
  });

  it('gets one deployment by its global id, and the merge requests it shipped', async () => {
    const [latest] = (
      await rest(`${CHECKOUT}/deployments?environment=production&sort=desc`)
    ).body;
    const one = await rest(`${CHECKOUT}/deployments/${latest.id}`);
    expect(one.body).toMatchObject({
      id: latest.id,
      iid: 212,
      pending_approval_count: 0,
      approvals: [],
    });
    expect((await rest(`${CHECKOUT}/deployments/1`)).status).toBe(404);
    // Since the previous successful deployment (the rollback to 3.8.0).
    const shipped = await rest(
      `${CHECKOUT}/deployments/${latest.id}/merge_requests`,
    );
    expect(shipped.body.map((mr: any) => [mr.iid, mr.state])).toEqual([
      [53, 'merged'],
      [51, 'merged'],
    ]);
    // Review apps are not linked to merge requests.
    const [review] = (
      await rest(`/projects/101/deployments?environment=review/feature-cart`)
    ).body;
    expect(
      (await rest(`/projects/101/deployments/${review.id}/merge_requests`))
        .body,
    ).toEqual([]);
  });

  it('answers 404 to a caller who cannot see the project', async () => {
    expect(
      (await rest(`${CHECKOUT}/deployments`, 'glpat-outsider')).status,
    ).toBe(404);
  });

  const DEPLOYMENTS = `query($env: String!, $after: String) {
    project(fullPath: "acme/shop/storefront") {
      environment(name: $env) {
        deployments(orderBy: { createdAt: DESC }, first: 2, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes {
            iid status ref tag sha createdAt finishedAt webPath
            commit { shortId title authorName webPath author { username } }
            triggerer { username name webUrl }
            job { name status stage { name } webPath retryable retried
                  pipeline { iid path status } }
          }
        }
      }
    }
  }`;

  it('serves Environment.deployments with commit, triggerer, job and pipeline, paged newest first', async () => {
    const first = await graphql(sim(), DEPLOYMENTS, {
      env: 'production/us-region',
    });
    expect(first.body.errors).toBeUndefined();
    const page = first.body.data.project.environment.deployments;
    expect(page.nodes.map((n: any) => [n.iid, n.status])).toEqual([
      ['58', 'FAILED'],
      ['57', 'SUCCESS'],
    ]);
    expect(page.nodes[1]).toMatchObject({
      ref: 'main',
      tag: false,
      commit: {
        shortId: '9f1c2e7a',
        title: 'Release 4.12.0',
        author: { username: 'alice' },
      },
      triggerer: { username: 'alice', name: 'Alice Platform' },
      job: {
        status: 'SUCCESS',
        stage: { name: 'deploy' },
        retryable: true,
        retried: false,
        pipeline: { iid: '150', status: 'SUCCESS' },
      },
    });
    const next = await graphql(sim(), DEPLOYMENTS, {
      env: 'production/us-region',
      after: page.pageInfo.endCursor,
    });
    const rest2 = next.body.data.project.environment.deployments;
    expect(rest2.nodes.map((n: any) => n.iid)).toEqual(['49', '47']);
    // 47 was canceled and its job re-run (49): no longer retryable.
    expect(rest2.nodes[1].job).toMatchObject({
      status: 'CANCELED',
      retried: true,
      retryable: false,
    });
  });

  it('applies GitLab’s argument rules: one orderBy key, finished statuses for finishedAt, one environment per query', async () => {
    const two = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environment(name: "staging") {
              deployments(orderBy: { createdAt: DESC, finishedAt: ASC }) {
                nodes {
                  iid
                }
              }
            }
          }
        }
      `,
    );
    expect(two.body.errors[0]).toMatchObject({
      message: 'orderBy parameter must contain one key-value pair.',
      path: ['project', 'environment', 'deployments'],
    });
    const succeeded = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environment(name: "production/us-region") {
              deployments(
                statuses: [SUCCESS]
                orderBy: { finishedAt: DESC }
                first: 1
              ) {
                nodes {
                  iid
                }
              }
            }
          }
        }
      `,
    );
    expect(succeeded.body.data.project.environment.deployments.nodes).toEqual([
      { iid: '57' },
    ]);
    // DeploymentsFinder::InefficientQueryError is not rescued: GraphqlController's 500.
    const unfinished = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environment(name: "staging") {
              deployments(orderBy: { finishedAt: DESC }) {
                nodes {
                  iid
                }
              }
            }
          }
        }
      `,
    );
    expect(unfinished).toMatchObject({
      status: 500,
      body: { errors: [{ message: 'Internal server error' }] },
    });
    const mixed = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environment(name: "staging") {
              deployments(statuses: [CREATED, SUCCESS]) {
                nodes {
                  iid
                }
              }
            }
          }
        }
      `,
    );
    expect(mixed.status).toBe(500);
    const twice = await graphql(
      sim(),
      `
        {
          project(fullPath: "acme/shop/storefront") {
            environments {
              nodes {
                deployments(first: 1) {
                  nodes {
                    iid
                  }
                }
              }
            }
          }
        }
      `,
    );
    expect(twice.body.errors[0].message).toBe(
      '"deployments" field can be requested only for 1 Environment(s) at a time.',
    );
  });
});

describe('CiJob.retryPath by GitLab version', () => {
  const atVersion = (version: string) => {
    const scenario = loadDefaultScenario();
    return { ...scenario, instance: { ...scenario.instance, version } };
  };
  const v18_3 = useSimulator({ scenario: atVersion('18.3.2-ee'), tickMs: 0 });
  const v18_4 = useSimulator({ scenario: atVersion('18.4.0-ee'), tickMs: 0 });
  const query = `{ project(fullPath: "acme/shop/storefront") { environment(name: "production/us-region") {
      deployments(orderBy: { createdAt: DESC }, first: 3) { nodes { iid job { retryable retryPath webPath } } } } } }`;

  it('serves retryPath from 18.4 (MR !199602), null when the job is not retryable', async () => {
    const before = await graphql(v18_3(), query);
    expect(before.body.errors[0].message).toMatch(
      /Cannot query field "retryPath" on type "CiJob"/,
    );
    const since = await graphql(v18_4(), query);
    const jobs = since.body.data.project.environment.deployments.nodes.map(
      (n: any) => n.job,
    );
    expect(jobs[0].retryPath).toBe(`${jobs[0].webPath}/retry`);
    expect(jobs.every((j: any) => (j.retryPath !== null) === j.retryable)).toBe(
      true,
    );
  });
});
