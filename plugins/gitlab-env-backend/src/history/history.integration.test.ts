import { mockServices } from '@backstage/backend-test-utils';
import {
  DeploymentChanges,
  DeploymentHistoryResponse,
  EnvironmentActionResponse,
  GitlabEnvErrorResponse,
  GitlabRollbackResponse,
  MergeRequestPreviewResponse,
  PromotionDiffResponse,
  VersionsResponse,
  WorkloadRevisionsResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import {
  ownedComponent,
  instancesWithRollbackToken,
  startBackendOnSimulator,
  storefrontComponent,
  TEST_KAS_TUNNELS,
  startTestSimulator,
} from '../__testUtils__/backendOnSimulator';
import { AuditRecord, recordAuditEvents } from '../__testUtils__/auditRecords';
import { permissionsDenying } from '../__testUtils__/permissions';
import { readGitlabEnvConfig } from '../config';
import { ConfigReader } from '@backstage/config';
import { GitlabRestClient } from '../transport/gitlabRest';
import { restDeployments } from '../transport/gitlabDeployments';
import { retryJob } from '../transport/gitlabRepository';

const CHECKOUT = '/api/gitlab-env/entity/default/component/checkout-api';
const STOREFRONT = '/api/gitlab-env/entity/default/component/storefront';
const entities = [
  ownedComponent('checkout-api', 'acme/shop/checkout-api'),
  storefrontComponent(),
];

describe('history against the simulator', () => {
  let simulator: RunningSimulator;
  let server: any;
  const auditor = mockServices.auditor.mock();
  const events: AuditRecord[] = [];
  const denied = new Set<string>();
  const permissions = permissionsDenying(denied);

  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      tickMs: 0,
      deployJobPhaseMs: 50,
      kasTunnels: TEST_KAS_TUNNELS,
    } as any);
    recordAuditEvents(
      auditor,
      events,
      o => o.eventId !== 'environment-resources-read',
    );
    const backend = await startBackendOnSimulator(simulator, {
      entities,
      gitlabEnv: {
        instances: instancesWithRollbackToken(simulator),
        requestTimeoutMs: 5000,
        cacheTtlSeconds: 0.2,
        transientCacheSeconds: 0.2,
      },
      features: [auditor.factory, permissions.factory],
    });
    server = backend.server;
  });
  afterAll(() => simulator.close());
  beforeEach(() => {
    denied.clear();
    events.length = 0;
  });

  const get = (path: string) => request(server).get(path);
  /** The simulator's instance as the backend's bot reads it. */
  const botInstance = () =>
    readGitlabEnvConfig(
      new ConfigReader({
        gitlabEnv: {
          instances: [
            {
              host: 'gitlab.example.com',
              baseUrl: simulator.url,
              token: 'glpat-demo-backstage-bot',
            },
          ],
        },
      }),
    ).instances[0];

  it('pages an environment’s deployments from GraphQL, newest first, with triggerer, job, pipeline and times', async () => {
    const res = await get(
      `${CHECKOUT}/environments/production/deployments?limit=3`,
    ).expect(200);
    const body = res.body as DeploymentHistoryResponse;
    expect(body.source).toBe('graphql');
    expect(body.deployments.map(d => [d.iid, d.status, d.ref])).toEqual([
      ['212', 'success', 'v3.8.2'],
      ['209', 'success', 'v3.8.0'],
      ['208', 'failed', 'v3.8.1'],
    ]);
    const [latest] = body.deployments;
    expect(latest).toMatchObject({
      tag: true,
      sha: expect.stringMatching(/^5d6e7f80/),
      triggerer: { username: 'alice', name: 'Alice Platform' },
      job: {
        id: expect.stringMatching(/^\d+$/),
        webUrl: expect.stringContaining('/acme/shop/checkout-api/-/jobs/'),
        pipeline: { webUrl: expect.stringContaining('/-/pipelines/') },
      },
      webUrl: expect.stringContaining('/-/environments/1021/deployments/212'),
      rollback: {
        available: false,
        reason: 'This is what the environment runs now.',
        command: expect.stringMatching(
          /^curl --request POST --header "PRIVATE-TOKEN: \$GITLAB_TOKEN" .*\/jobs\/\d+\/retry$/,
        ),
      },
    });
    expect(latest.durationSeconds).toBeGreaterThan(0);
    expect(body.deployments[1].rollback).toMatchObject({ available: true });
    expect(body.deployments[2].rollback).toMatchObject({ available: false });
    const next = await get(
      `${CHECKOUT}/environments/production/deployments?limit=3&cursor=${encodeURIComponent(
        body.nextCursor!,
      )}`,
    ).expect(200);
    expect(
      (next.body as DeploymentHistoryResponse).deployments.map(d => d.iid),
    ).toEqual(['205']);
  });

  it('reads the same history through the REST deployments API', async () => {
    const instance = botInstance();
    const rest = await restDeployments(
      new GitlabRestClient(instance, 5000, fn => fn()),
      instance,
      {
        id: '102',
        fullPath: 'acme/shop/checkout-api',
        webUrl: `${simulator.url}/acme/shop/checkout-api`,
      },
      { id: '1021', name: 'production' },
      10,
      1,
    );
    const graphql = (
      await get(
        `${CHECKOUT}/environments/production/deployments?limit=10`,
      ).expect(200)
    ).body as DeploymentHistoryResponse;
    const fields = (d: any) => [
      d.id,
      d.iid,
      d.status,
      d.ref,
      d.tag,
      d.sha,
      d.triggerer?.name,
      d.job?.id,
      d.job?.pipeline?.id,
      d.webUrl,
    ];
    expect(rest.deployments.map(fields)).toEqual(
      graphql.deployments.map(fields),
    );
  });

  it('tells what a deployment brought: the commits since the previous successful one, their merge requests, the images', async () => {
    const { deployments } = (
      await get(`${CHECKOUT}/environments/production/deployments`).expect(200)
    ).body as DeploymentHistoryResponse;
    const latest = deployments.find(d => d.iid === '212')!;
    const res = await get(
      `${CHECKOUT}/environments/production/deployments/${latest.id}/changes`,
    ).expect(200);
    const changes = res.body as DeploymentChanges;
    expect(changes.since).toMatchObject({ iid: '209', ref: 'v3.8.0' });
    expect(changes.commits.map(c => c.title)).toEqual(
      expect.arrayContaining(['Release 3.8.1', 'Release 3.8.2']),
    );
    expect(changes.mergeRequests.map(m => m.iid)).toEqual(
      expect.arrayContaining([51, 53]),
    );
    expect(changes.mergeRequestsFrom).toBe('deployment');
    expect(changes.images).toEqual([
      expect.objectContaining({
        workload: 'Deployment checkout/checkout-api',
        container: 'api',
        from: 'registry.example.com/acme/shop/checkout-api:3.8.0',
        to: 'registry.example.com/acme/shop/checkout-api:3.8.2',
      }),
    ]);
    expect(changes.compareUrl).toContain('/-/compare/');
    // 209 re-ran 205's job: the same commit, nothing new.
    const rerun = deployments.find(d => d.iid === '209')!;
    const same = (
      await get(
        `${CHECKOUT}/environments/production/deployments/${rerun.id}/changes`,
      ).expect(200)
    ).body as DeploymentChanges;
    expect(same).toMatchObject({
      since: { iid: '205' },
      commits: [],
      images: [],
    });
  });

  it('refuses a deployment of another environment', async () => {
    const { deployments } = (
      await get(`${CHECKOUT}/environments/staging/deployments`).expect(200)
    ).body as DeploymentHistoryResponse;
    const res = await get(
      `${CHECKOUT}/environments/production/deployments/${deployments[0].id}/changes`,
    );
    expect(res.status).toBe(404);
    expect((res.body as GitlabEnvErrorResponse).gitlabEnv.code).toBe(
      'DEPLOYMENT_NOT_FOUND',
    );
  });

  it('rolls back in GitLab by re-running an earlier deploy job, audited, and GitLab adds a deployment', async () => {
    const slugRes = await get(
      `${STOREFRONT}/environments?withHealth=false`,
    ).expect(200);
    // A review app deploys an unprotected branch: a Developer may re-run its jobs.
    const slug = slugRes.body.environments.find(
      (e: any) => e.name === 'review/feature-cart',
    ).slug;
    const history = (
      await get(`${STOREFRONT}/environments/${slug}/deployments`).expect(200)
    ).body as DeploymentHistoryResponse;
    const target = history.deployments.find(d => d.iid === '51')!;
    expect(target.rollback).toMatchObject({ available: true });
    const res = await request(server)
      .post(
        `${STOREFRONT}/environments/${slug}/deployments/${target.id}/rollback`,
      )
      .expect(200);
    const body = res.body as GitlabRollbackResponse;
    expect(body.job).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      webUrl: expect.stringContaining('/-/jobs/'),
    });
    expect(body.command).toBe(
      `curl --request POST --header "PRIVATE-TOKEN: $GITLAB_TOKEN" ${
        simulator.url
      }/api/v4/projects/acme%2Fshop%2Fstorefront/jobs/${target.job!.id}/retry`,
    );
    expect(
      events.find(e => e.options.eventId === 'environment-gitlab-rollback'),
    ).toMatchObject({
      outcome: 'success',
      options: { severityLevel: 'medium', meta: { deploymentId: target.id } },
      meta: { jobId: target.job!.id, newJobId: body.job.id },
    });
    const after = (
      await get(`${STOREFRONT}/environments/${slug}/deployments`).expect(200)
    ).body as DeploymentHistoryResponse;
    expect(after.deployments[0]).toMatchObject({
      ref: target.ref,
      sha: target.sha,
      job: { id: body.job.id },
    });
    // The same job again: GitLab says it was retried already.
    const again = await request(server).post(
      `${STOREFRONT}/environments/${slug}/deployments/${target.id}/rollback`,
    );
    expect(again.status).toBe(409);
    expect((again.body as GitlabEnvErrorResponse).gitlabEnv).toMatchObject({
      code: 'JOB_NOT_RETRYABLE',
      upstreamStatus: 403,
    });
  });

  it('names GitLab’s refusal on a protected environment the token’s user may not deploy to', async () => {
    const { deployments } = (
      await get(`${CHECKOUT}/environments/production/deployments`).expect(200)
    ).body as DeploymentHistoryResponse;
    const older = deployments.find(d => d.iid === '205')!;
    const res = await request(server).post(
      `${CHECKOUT}/environments/production/deployments/${older.id}/rollback`,
    );
    expect(res.status).toBe(403);
    expect((res.body as GitlabEnvErrorResponse).gitlabEnv).toMatchObject({
      code: 'JOB_RETRY_FORBIDDEN',
      message: expect.stringContaining('protected environment'),
    });
    expect(
      events.find(e => e.options.eventId === 'environment-gitlab-rollback'),
    ).toMatchObject({
      outcome: 'failure',
      meta: { code: 'JOB_RETRY_FORBIDDEN', upstreamStatus: 403 },
    });
  });

  it('needs gitlab-env.deployments.rollback', async () => {
    denied.add('gitlab-env.deployments.rollback');
    const { deployments } = (
      await get(`${CHECKOUT}/environments/production/deployments`).expect(200)
    ).body as DeploymentHistoryResponse;
    const res = await request(server).post(
      `${CHECKOUT}/environments/production/deployments/${deployments[1].id}/rollback`,
    );
    expect(res.status).toBe(403);
    expect((res.body as GitlabEnvErrorResponse).gitlabEnv.code).toBe(
      'NOT_ALLOWED',
    );
    expect(
      events.find(e => e.options.eventId === 'environment-gitlab-rollback')
        ?.outcome,
    ).toBe('failure');
  });

  it('types GitLab’s other refusals: a token without api, a job already retried', async () => {
    const instance = botInstance();
    const rest = new GitlabRestClient(instance, 5000, fn => fn());
    const { deployments } = (
      await get(`${CHECKOUT}/environments/production/deployments`).expect(200)
    ).body as DeploymentHistoryResponse;
    const job = deployments.find(d => d.iid === '209')!.job!.id;
    await expect(
      retryJob(
        rest,
        instance,
        'acme/shop/checkout-api',
        job,
        'glpat-bot-no-k8s-proxy',
        'production',
      ),
    ).rejects.toMatchObject({
      detail: { code: 'ROLLBACK_TOKEN_SCOPE', upstreamStatus: 403 },
    });
    const retried = deployments.find(d => d.iid === '205')!.job!.id;
    await expect(
      retryJob(
        rest,
        instance,
        'acme/shop/checkout-api',
        retried,
        'glpat-alice',
        'production',
      ),
    ).rejects.toMatchObject({ detail: { code: 'JOB_NOT_RETRYABLE' } });
  });

  it('lists workload revisions with their diff from now and who reverts a manual rollback', async () => {
    const res = await get(
      `${CHECKOUT}/environments/production/revisions`,
    ).expect(200);
    const body = res.body as WorkloadRevisionsResponse;
    const api = body.workloads.find(w => w.target.name === 'checkout-api')!;
    expect(api.revisions.map(r => [r.revision, r.current])).toEqual([
      [3, false],
      [4, false],
      [5, true],
    ]);
    expect(api.revisions[0].diffFromCurrent).toEqual(
      expect.arrayContaining([
        {
          path: 'spec.containers[name=api].image',
          change: 'changed',
          before: 'registry.example.com/acme/shop/checkout-api:3.8.2',
          after: 'registry.example.com/acme/shop/checkout-api:3.8.0',
        },
      ]),
    );
    expect(api.managedBy).toMatchObject({
      by: 'flux',
      object: {
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'checkout-api',
      },
      suspended: false,
    });
    expect(api.historyCommand).toBe(
      'kubectl rollout history deployment/checkout-api -n checkout',
    );
  });

  it('rolls a Deployment back to a revision through the actions route, and refuses an unknown one', async () => {
    const target = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'checkout',
      name: 'checkout-api',
    };
    const res = await request(server)
      .post(`${CHECKOUT}/environments/production/actions`)
      .send({ action: 'workload.rollback', target, toRevision: 3 })
      .expect(200);
    expect(res.body as EnvironmentActionResponse).toMatchObject({
      outcome: 'changed',
      kubectl:
        'kubectl rollout undo deployment/checkout-api --to-revision=3 -n checkout',
    });
    const live = simulator
      .cluster('prod-us')
      .store.all()
      .find(
        (o: any) =>
          o.kind === 'Deployment' && o.metadata.name === 'checkout-api',
      );
    expect(live?.spec.template.spec.containers[0].image).toBe(
      'registry.example.com/acme/shop/checkout-api:3.8.0',
    );
    expect(
      events.find(e => e.options.eventId === 'environment-action'),
    ).toMatchObject({
      outcome: 'success',
      options: { meta: { action: 'workload.rollback', toRevision: 3 } },
    });
    const unknown = await request(server)
      .post(`${CHECKOUT}/environments/production/actions`)
      .send({ action: 'workload.rollback', target, toRevision: 99 });
    expect(unknown.status).toBe(404);
    expect((unknown.body as GitlabEnvErrorResponse).gitlabEnv).toMatchObject({
      code: 'REVISION_NOT_FOUND',
      message: expect.stringContaining(
        'unable to find specified revision 99 in history',
      ),
    });
    denied.add('gitlab-env.workloads.rollback');
    const refused = await request(server)
      .post(`${CHECKOUT}/environments/production/actions`)
      .send({ action: 'workload.rollback', target, toRevision: 5 });
    expect(refused.status).toBe(403);
  });

  it('shows versions across environments, how far production is behind staging', async () => {
    const res = await get(`${CHECKOUT}/versions`).expect(200);
    const [checkout] = (res.body as VersionsResponse).entities;
    const production = checkout.environments.find(
      e => e.environment.name === 'production',
    )!;
    expect(production).toMatchObject({
      ref: 'v3.8.2',
      images: expect.objectContaining({
        'Deployment/checkout-api/api': expect.stringContaining('checkout-api:'),
      }),
      comparedWith: {
        name: 'staging',
        behind: expect.any(Number),
        summary: expect.stringMatching(
          /^production is \d+ commits? behind staging/,
        ),
        compareUrl: expect.stringContaining(
          '/acme/shop/checkout-api/-/compare/',
        ),
      },
    });
    expect(production.comparedWith!.behind).toBeGreaterThan(0);
  });

  it('diffs two environments for a promotion: images and config keys', async () => {
    const res = await get(
      `${CHECKOUT}/promotion?from=staging&to=production`,
    ).expect(200);
    const body = res.body as PromotionDiffResponse;
    expect(body.from.environment.name).toBe('staging');
    expect(body.differences.length).toBeGreaterThan(0);
    expect(body.to.comparedWith).toMatchObject({ name: 'staging' });
    expect(body.differences).toEqual(
      expect.arrayContaining([
        {
          object: { kind: 'Deployment', name: 'checkout-api' },
          aspect: 'image',
          what: 'container api',
          from: 'registry.example.com/acme/shop/checkout-api:3.9.0-beta.2',
          to: expect.stringContaining(
            'registry.example.com/acme/shop/checkout-api:3.8.',
          ),
        },
        {
          object: { kind: 'ConfigMap', name: 'checkout-config' },
          aspect: 'config',
          what: 'key PAYMENT_PROVIDER',
          from: 'stripe-test',
          to: 'stripe',
        },
      ]),
    );
  });

  it('previews what an open merge request would change in the Flux environment it reaches', async () => {
    const res = await get(`${CHECKOUT}/merge-requests/preview`).expect(200);
    const body = res.body as MergeRequestPreviewResponse;
    const eu = body.mergeRequests.find(m => m.iid === 57)!;
    expect(eu.touchedFiles).toEqual(
      expect.arrayContaining(['deploy/production/pdb.yaml']),
    );
    const production = eu.environments.find(
      e => e.environment.name === 'production',
    )!;
    expect(production.fluxObject).toBe(
      'Kustomization flux-system/checkout-api',
    );
    expect(production.added.map(a => a.id)).toEqual([
      'policy/PodDisruptionBudget/checkout/checkout-api',
    ]);
    expect(production.changed.map(c => c.id)).toEqual(
      expect.arrayContaining(['/Service/checkout/checkout-api']),
    );
  });
});

describe('merge request previews when GitLab cannot show one', () => {
  // One answer replaced at the socket; the rest pass through to the simulator.
  const upstream = setupServer();
  beforeAll(() => upstream.listen({ onUnhandledRequest: 'bypass' }));
  afterAll(() => upstream.close());

  it("keeps the others' previews and says which one failed", async () => {
    const simulator = await startTestSimulator();
    try {
      const { server } = await startBackendOnSimulator(simulator, {
        entities,
        gitlabEnv: { requestTimeoutMs: 5000 },
      });
      // Merge request !57's changes fail, as GitLab answers for one merged meanwhile.
      upstream.use(
        http.get(`${simulator.url}/*/merge_requests/57/diffs`, () =>
          HttpResponse.json({ message: '404 Not found' }, { status: 404 }),
        ),
      );
      const res = await request(server)
        .get(`${CHECKOUT}/merge-requests/preview`)
        .expect(200);
      const body = res.body as MergeRequestPreviewResponse;
      expect(body.mergeRequests.map(m => m.iid)).not.toContain(57);
      expect(body.errors?.map(e => e.message)).toEqual([
        expect.stringMatching(/^Merge request !57: /),
      ]);
    } finally {
      await simulator.close();
    }
  });
});
