import {
  DeploymentChanges,
  DeploymentHistoryResponse,
  GitlabEnvErrorResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
  startTestSimulator,
} from '../__testUtils__/backendOnSimulator';

const CHECKOUT = '/api/gitlab-env/entity/default/component/checkout-api';

/**
 * What a deployment brought is counted from the previous successful one,
 * however far back GitLab lists it, and a read of the history ends with the
 * request's deadline. The simulator's environment gets many newer
 * deployments (as a busy environment has); msw, at the network boundary,
 * holds one GitLab answer forever.
 */
describe('deployment changes on a busy environment', () => {
  let simulator: RunningSimulator;
  let server: any;
  const held = setupServer();
  let releaseHeld = () => {};

  beforeAll(async () => {
    simulator = await startTestSimulator();
    held.listen({ onUnhandledRequest: 'bypass' });
    const backend = await startBackendOnSimulator(simulator, {
      entities: [
        component('checkout-api', {
          'gitlab.com/project-slug': 'acme/shop/checkout-api',
        }),
      ],
      gitlabEnv: { requestTimeoutMs: 60_000, requestDeadlineMs: 2_000 },
    });
    server = backend.server;
  });
  afterAll(async () => {
    releaseHeld();
    held.close();
    await simulator.close();
  });

  /** `count` successful deployments of production, newer than any it has. */
  const deployNewer = (count: number) => {
    const production = simulator.scenario.projects
      .find(p => p.fullPath === 'acme/shop/checkout-api')!
      .environments.find(e => e.name === 'production')!;
    const [latest] = production.deployments;
    for (let i = 0; i < count; i++) {
      const newest = production.deployments[0];
      production.deployments.unshift({
        ...latest,
        id: newest.id + 1,
        iid: newest.iid + 1,
        status: 'SUCCESS',
        job: { ...latest.job, id: newest.job.id + 1 },
      });
    }
  };
  /** The global id of a deployment of production the first page lists. */
  const idOf = async (iid: string) => {
    const { deployments } = (
      await request(server)
        .get(`${CHECKOUT}/environments/production/deployments?limit=5`)
        .expect(200)
    ).body as DeploymentHistoryResponse;
    return deployments.find(d => d.iid === iid)!.id;
  };
  const changesOf = (id: string) =>
    request(server).get(
      `${CHECKOUT}/environments/production/deployments/${id}/changes`,
    );

  it('ends the read of a deployment with the request deadline when GitLab does not answer', async () => {
    held.use(
      http.get(
        `${simulator.url}/api/v4/projects/:project/deployments/:id`,
        () =>
          new Promise<never>(resolve => {
            releaseHeld = () => resolve(undefined as never);
          }),
        { once: true },
      ),
    );
    const res = await changesOf(await idOf('212'));
    expect(res.status).toBe(504);
    expect((res.body as GitlabEnvErrorResponse).gitlabEnv.code).toBe(
      'UPSTREAM_TIMEOUT',
    );
  });

  it('finds the previous successful deployment beyond GitLab’s first page, and says when it stopped looking', async () => {
    const id212 = await idOf('212');
    deployNewer(150);
    const beyondFirstPage = (await changesOf(id212).expect(200))
      .body as DeploymentChanges;
    expect(beyondFirstPage.since).toMatchObject({ iid: '209' });
    expect(beyondFirstPage.commits.length).toBeGreaterThan(0);

    deployNewer(1_000);
    const tooFar = (await changesOf(id212).expect(200))
      .body as DeploymentChanges;
    expect(tooFar.since).toBeUndefined();
    expect(tooFar.notes).toContain(
      'The previous successful deployment is more than 1000 successful deployments back: GitLab was not asked further. Compare the commits in GitLab.',
    );
  });
});
