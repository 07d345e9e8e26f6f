import { DeploymentHistoryResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import { http, HttpResponse, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import {
  component,
  startBackendOnSimulator,
  startTestSimulator,
} from '../__testUtils__/backendOnSimulator';

/**
 * A GitLab that refuses the deployments document (a field it lacks): at the
 * network boundary, the GraphQL answer GitLab gives such a document; every
 * other request goes to the simulator. The history then comes from the
 * REST deployments API, the same records.
 */
const refused = setupServer();

describe('deployment history where GitLab refuses the GraphQL document', () => {
  let simulator: RunningSimulator;
  let server: any;
  let graphqlRefusals = 0;

  beforeAll(async () => {
    simulator = await startTestSimulator();
    refused.use(
      http.post(`${simulator.url}/api/graphql`, async ({ request: r }) => {
        const body = (await r.clone().json()) as { query?: string };
        if (!body.query?.includes('query GitlabEnvDeployments'))
          return passthrough();
        graphqlRefusals += 1;
        return HttpResponse.json({
          errors: [
            {
              message:
                "Field 'deployments' doesn't exist on type 'Environment'",
              locations: [{ line: 10, column: 9 }],
            },
          ],
        });
      }),
    );
    refused.listen({ onUnhandledRequest: 'bypass' });
    const backend = await startBackendOnSimulator(simulator, {
      entities: [
        component('checkout-api', {
          'gitlab.com/project-slug': 'acme/shop/checkout-api',
        }),
      ],
    });
    server = backend.server;
  });
  afterAll(async () => {
    refused.close();
    await simulator.close();
  });

  it('reads the REST deployments API instead, with its pages', async () => {
    const res = await request(server)
      .get(
        '/api/gitlab-env/entity/default/component/checkout-api/environments/production/deployments?limit=2',
      )
      .expect(200);
    const body = res.body as DeploymentHistoryResponse;
    expect(graphqlRefusals).toBe(1);
    expect(body.source).toBe('rest');
    expect(body.deployments.map(d => [d.iid, d.status, d.ref])).toEqual([
      ['212', 'success', 'v3.8.2'],
      ['209', 'success', 'v3.8.0'],
    ]);
    expect(body.deployments[0]).toMatchObject({
      triggerer: { username: 'alice' },
      job: {
        webUrl: expect.stringContaining('/-/jobs/'),
        pipeline: { webUrl: expect.stringContaining('/-/pipelines/') },
      },
    });
    expect(body.nextCursor).toMatch(/^r:2$/);
    const next = await request(server)
      .get(
        `/api/gitlab-env/entity/default/component/checkout-api/environments/production/deployments?limit=2&cursor=${body.nextCursor}`,
      )
      .expect(200);
    expect(
      (next.body as DeploymentHistoryResponse).deployments.map(d => d.iid),
    ).toEqual(['208', '205']);
    // The REST cursor does not ask GraphQL again.
    expect(graphqlRefusals).toBe(1);
  });
});
