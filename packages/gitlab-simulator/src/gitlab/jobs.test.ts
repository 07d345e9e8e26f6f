import { DEMO_TOKEN } from '../scenario/generate';
import {
  eventually,
  graphql,
  kasJson,
  PROD_US,
  restJson,
  useSimulator,
} from '../testing/harness';

const CHECKOUT = '/projects/acme%2Fshop%2Fcheckout-api';
const STOREFRONT = '/projects/acme%2Fshop%2Fstorefront';

describe('retrying a deploy job: GitLab’s "Rollback environment" (lib/api/ci/jobs.rb, Ci::RetryJobService)', () => {
  const sim = useSimulator({ tickMs: 0, deployJobPhaseMs: 20 });
  const call = (path: string, token?: string, method?: string) =>
    restJson(sim(), path, token, method);
  const deployments = async (project: string, env: string) =>
    (
      await call(
        `${project}/deployments?environment=${encodeURIComponent(
          env,
        )}&sort=desc`,
      )
    ).body;

  it('needs the api scope: a read_api token is refused as GitLab refuses it', async () => {
    const [latest] = await deployments(STOREFRONT, 'review/feature-cart');
    expect(
      await call(
        `${STOREFRONT}/jobs/${latest.deployable.id}/retry`,
        DEMO_TOKEN,
        'POST',
      ),
    ).toMatchObject({
      status: 403,
      body: {
        error: 'insufficient_scope',
        error_description:
          'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      },
    });
    expect(
      (
        await call(
          `${STOREFRONT}/jobs/${latest.deployable.id}/retry`,
          DEMO_TOKEN,
        )
      ).status,
    ).toBe(405);
  });

  it('refuses a Developer on a protected environment (Premium "Allowed to deploy") and on a protected branch', async () => {
    const [production] = await deployments(CHECKOUT, 'production');
    expect(
      await call(
        `${CHECKOUT}/jobs/${production.deployable.id}/retry`,
        'glpat-bob',
        'POST',
      ),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    // main is protected: a Developer may neither push nor merge there.
    const [staging] = await deployments(STOREFRONT, 'staging');
    expect(
      (
        await call(
          `${STOREFRONT}/jobs/${staging.deployable.id}/retry`,
          'glpat-bob',
          'POST',
        )
      ).status,
    ).toBe(403);
    expect(
      await call(`${CHECKOUT}/jobs/123/retry`, 'glpat-bob', 'POST'),
    ).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('re-runs a review app’s job: a new job and a new deployment at the old commit, which runs to success', async () => {
    const before = await deployments(STOREFRONT, 'review/feature-cart');
    const old = before.find((d: any) => d.iid === 51);
    const retried = await call(
      `${STOREFRONT}/jobs/${old.deployable.id}/retry`,
      'glpat-bob',
      'POST',
    );
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({
      name: 'review-app',
      status: 'pending',
      ref: 'feature-cart',
      user: { username: 'bob' },
      pipeline: { id: old.deployable.pipeline.id },
    });
    expect(retried.body.id).toBeGreaterThan(old.deployable.id);
    const after = await eventually(
      () => deployments(STOREFRONT, 'review/feature-cart'),
      list => list[0].status === 'success',
    );
    expect(after[0]).toMatchObject({
      iid: 62,
      status: 'success',
      sha: old.sha,
      user: { username: 'bob' },
      deployable: { id: retried.body.id, status: 'success' },
    });
    expect(after).toHaveLength(before.length + 1);
    // The old job was retried: it may not be retried again.
    expect(
      await call(
        `${STOREFRONT}/jobs/${old.deployable.id}/retry`,
        'glpat-bob',
        'POST',
      ),
    ).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Job is not retryable' },
    });
  });

  it('rolls production back for a Maintainer, and the cluster follows: the deployment’s image rolls out', async () => {
    const image = async () =>
      (
        await kasJson(
          sim(),
          PROD_US,
          '/apis/apps/v1/namespaces/checkout/deployments/checkout-api',
        )
      ).body.spec.template.spec.containers[0].image;
    expect(await image()).toBe(
      'registry.example.com/acme/shop/checkout-api:3.8.2',
    );
    const failed = (await deployments(CHECKOUT, 'production')).find(
      (d: any) => d.iid === 208,
    );
    const retried = await call(
      `${CHECKOUT}/jobs/${failed.deployable.id}/retry`,
      'glpat-alice',
      'POST',
    );
    expect(retried.status).toBe(201);
    expect(await eventually(image, value => value.endsWith(':3.8.1'))).toBe(
      'registry.example.com/acme/shop/checkout-api:3.8.1',
    );
    const [latest] = await deployments(CHECKOUT, 'production');
    expect(latest).toMatchObject({
      status: 'success',
      ref: 'v3.8.1',
      sha: failed.sha,
      user: { username: 'alice' },
    });
    const rolledOut = await eventually(
      async () =>
        (
          await kasJson(
            sim(),
            PROD_US,
            '/apis/apps/v1/namespaces/checkout/replicasets',
          )
        ).body.items,
      sets =>
        sets.some(
          (rs: any) =>
            rs.spec.replicas > 0 &&
            rs.spec.template.spec.containers[0].image.endsWith(':3.8.1'),
        ),
    );
    // The 3.8.1 ReplicaSet of revision 4 is reused as revision 6.
    const active = rolledOut.find((rs: any) => rs.spec.replicas > 0);
    expect(active.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '6',
      'deployment.kubernetes.io/revision-history': '4',
    });
  });

  it('answers the GraphQL jobRetry mutation like GitLab: resource not available, not retryable, or the new job', async () => {
    const [, , older] = await deployments(STOREFRONT, 'production/us-region');
    const mutation = `mutation($id: CiProcessableID!) { jobRetry(input: { id: $id }) { job { id name status retryable } errors } }`;
    const id = `gid://gitlab/Ci::Build/${older.deployable.id}`;
    const readOnly = await graphql(sim(), mutation, { id });
    expect(readOnly.body).toMatchObject({
      data: { jobRetry: null },
      errors: [
        {
          message:
            "The resource that you are attempting to access does not exist or you don't have permission to perform this action",
          path: ['jobRetry'],
        },
      ],
    });
    const created = await graphql(sim(), mutation, { id }, 'glpat-alice');
    expect(created.body.data.jobRetry).toMatchObject({
      errors: [],
      job: {
        name: 'deploy-production-us-region',
        status: 'PENDING',
        retryable: false,
      },
    });
    const again = await graphql(sim(), mutation, { id }, 'glpat-alice');
    expect(again.body.data.jobRetry).toEqual({
      job: null,
      errors: ['Job is not retryable'],
    });
    const notGid = await graphql(sim(), mutation, { id: '42' }, 'glpat-alice');
    expect(notGid.body.errors[0].message).toBe('"42" is not a valid Global ID');
  });
});
