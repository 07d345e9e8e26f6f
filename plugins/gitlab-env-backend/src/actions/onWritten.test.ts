import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  DEMO_TOKEN,
  environmentSlug,
  RunningSimulator,
} from '@gitlab-env/gitlab-simulator';
import express from 'express';
import request from 'supertest';
import {
  storefrontComponent,
  startTestSimulator,
} from '../__testUtils__/backendOnSimulator';
import { RequestPipeline } from '../http/pipeline';
import { routeErrors } from '../http/route';
import { SharedTransport } from '../transport';
import {
  stagingRelease,
  stagingReleaseChart,
} from '../__testUtils__/storefrontTargets';
import { readGitlabEnvConfig } from '../config';
import { GitlabEnvironmentsService } from '../facade';
import { readActionsConfig } from './actionsConfig';
import { createActionsRouter } from './createActionsRouter';
import { ActionWritten } from './environmentActionRoute';
import { listsAfterWrite } from './refreshAfterWrite';

describe('createActionsRouter onWritten', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startTestSimulator();
    simulator.cluster('nonprod').store.upsert(stagingReleaseChart() as any);
  });
  afterAll(() => simulator.close());

  it('tells which objects a write changed, through which agent, and nothing for a refused one', async () => {
    const root = new ConfigReader({
      gitlabEnv: {
        instances: [
          {
            host: 'gitlab.example.com',
            baseUrl: simulator.url,
            token: DEMO_TOKEN,
          },
        ],
      },
    });
    const logger = mockServices.logger.mock();
    const permissions = mockServices.permissions.mock();
    permissions.authorize.mockImplementation(
      async requests =>
        requests.map(() => ({ result: AuthorizeResult.ALLOW })) as any,
    );
    const written: ActionWritten[] = [];
    const config = readGitlabEnvConfig(root);
    const transport = new SharedTransport(config);
    const service = new GitlabEnvironmentsService(config, logger, {
      transport,
    });
    const app = express().use(
      createActionsRouter({
        pipeline: new RequestPipeline({
          catalog: catalogServiceMock({ entities: [storefrontComponent()] }),
          permissions,
          auditor: mockServices.auditor.mock(),
          requestDeadlineMs: config.requestDeadlineMs,
          locate: (entity, options) => service.locate(entity, options),
        }),
        httpAuth: mockServices.httpAuth(),
        service,
        transport,
        logger,
        config: readActionsConfig(root),
        onWritten: w => written.push(w),
      }),
      routeErrors(logger, mockServices.auditor.mock()),
    );
    const slug = environmentSlug('staging');
    const path = `/entity/default/component/storefront/environments/${slug}/actions`;

    await request(app)
      .post(path)
      .send({ action: 'flux.reconcile', target: stagingRelease })
      .expect(200);
    expect(written).toEqual([
      expect.objectContaining({
        slug,
        action: 'flux.reconcile',
        agent: { host: 'gitlab.example.com', id: '3' },
        written: [stagingRelease],
      }),
    ]);

    // With its source (a reconcile --with-source writes two), the live
    // stream lists again the two Flux kinds written, where they are and
    // under the environment's namespace, which holds them live.
    const agent = { host: 'gitlab.example.com', id: '3' };
    const chart = { group: 'source.toolkit.fluxcd.io', kind: 'HelmChart' };
    const helmRelease = {
      group: 'helm.toolkit.fluxcd.io',
      kind: 'HelmRelease',
    };
    expect(written[0].environmentNamespace).toBe('storefront-staging');
    const withSource = {
      ...written[0],
      written: [
        {
          apiVersion: 'source.toolkit.fluxcd.io/v1',
          kind: 'HelmChart',
          namespace: 'flux-system',
          name: 'flux-system-storefront-staging',
        },
        stagingRelease,
      ],
    };
    expect(listsAfterWrite(withSource)).toEqual([
      { agent, namespace: 'flux-system', resource: chart },
      { agent, namespace: 'storefront-staging', resource: chart },
      { agent, namespace: 'flux-system', resource: helmRelease },
      { agent, namespace: 'storefront-staging', resource: helmRelease },
    ]);
    // A restart changes ReplicaSets and Pods too: the whole namespace.
    expect(
      listsAfterWrite({
        ...written[0],
        action: 'workload.restart',
        written: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            namespace: 'storefront-staging',
            name: 'storefront-web',
          },
        ],
      }),
    ).toEqual([
      {
        agent: { host: 'gitlab.example.com', id: '3' },
        namespace: 'storefront-staging',
      },
    ]);

    await request(app)
      .post(path)
      .send({
        action: 'flux.suspend',
        target: { ...stagingRelease, name: 'other' },
      })
      .expect(403);
    expect(written).toHaveLength(1);
  });
});
