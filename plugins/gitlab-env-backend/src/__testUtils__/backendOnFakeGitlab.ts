import { BackendFeature } from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { http, passthrough } from 'msw';
import { gitlabEnvPlugin } from '../plugin';
import { GITLAB_URL, TOKEN } from './fakeGitlab';

/** supertest talks to a test backend over loopback: msw lets that through. */
export const loopbackPassthrough = http.all(
  /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//,
  () => passthrough(),
);

/**
 * The gitlab-env plugin in a test backend whose one GitLab instance is
 * fakeGitlab's (msw at the network boundary), with a catalog of the given
 * entities: the router tests' backend, as startBackendOnSimulator is the
 * integration tests'.
 */
export async function startBackendOnFakeGitlab(options: {
  entities: Entity[];
  /** Other `gitlabEnv` settings: timeouts, cache. */
  gitlabEnv?: Record<string, unknown>;
  /** Extra features, such as a permissions mock. */
  features?: BackendFeature[];
}) {
  const { server } = await startTestBackend({
    features: [
      gitlabEnvPlugin,
      catalogServiceMock.factory({ entities: options.entities }),
      mockServices.rootConfig.factory({
        data: {
          gitlabEnv: {
            instances: [
              { host: 'gitlab.test', baseUrl: GITLAB_URL, token: TOKEN },
            ],
            ...options.gitlabEnv,
          },
        },
      }),
      ...(options.features ?? []),
    ],
  });
  return server;
}
