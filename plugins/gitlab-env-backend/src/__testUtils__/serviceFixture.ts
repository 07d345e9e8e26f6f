import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { GitlabEnvError } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { ConfigReader } from '@backstage/config';
import {
  DEFAULT_PLATFORM_NAMESPACES,
  GitlabEnvConfig,
  readGitlabEnvConfig,
} from '../config';
import { GitlabEnvFailure } from '../errors';
import { GitlabEnvironmentsService } from '../facade';
import { GITLAB_URL, TOKEN } from './fakeGitlab';

export function testConfig(
  overrides: Partial<GitlabEnvConfig> = {},
): GitlabEnvConfig {
  return {
    instances: [
      {
        host: 'gitlab.test',
        baseUrl: GITLAB_URL,
        apiBaseUrl: `${GITLAB_URL}/api/v4`,
        graphqlUrl: `${GITLAB_URL}/api/graphql`,
        token: TOKEN,
      },
    ],
    requestTimeoutMs: 1000,
    kasFirstRequestTimeoutMs: 1000,
    expectedForbiddenKinds: ['Secret'],
    cacheTtlSeconds: 30,
    transientCacheSeconds: 5,
    requestDeadlineMs: 5000,
    limits: {
      maxPagesPerList: 100,
      maxObjectsPerEnvironment: 20_000,
      maxResponseBytes: 32 * 1024 * 1024,
    },
    concurrency: { perInstance: 16, perAgent: 8 },
    ciAccess: { namespaceOverflow: 'refuse' },
    ownership: {
      claims: [],
      platformNamespaces: DEFAULT_PLATFORM_NAMESPACES,
      claimsRefreshMs: 300_000,
    },
    namespaceMapping: { workloadAnnotations: 'acrossCluster' },
    overview: {
      clusterWideReads: true,
      clusterWideMinNamespaces: 3,
      deadlineMs: 30_000,
    },
    live: readGitlabEnvConfig(
      new ConfigReader({
        gitlabEnv: { instances: [{ host: 'h', baseUrl: GITLAB_URL }] },
      }),
    ).live,
    ...overrides,
  };
}

export function entityWith(annotations: Record<string, string>): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'app', namespace: 'default', annotations },
    spec: {},
  };
}

export const appEntity = entityWith({ 'gitlab.com/project-slug': 'acme/app' });

/** A service plus every log line it wrote, to check what logs reveal. */
export function createTestService(overrides: Partial<GitlabEnvConfig> = {}) {
  const logger = mockServices.logger.mock();
  const service = new GitlabEnvironmentsService(testConfig(overrides), logger);
  const logLines = () =>
    JSON.stringify(
      ['debug', 'info', 'warn', 'error'].map(
        level => (logger as any)[level].mock.calls,
      ),
    );
  return { service, logLines };
}

/** The typed failure a call ends with; fails the test if it succeeds or throws anything else. */
export async function failureOf(
  promise: Promise<unknown>,
): Promise<GitlabEnvError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GitlabEnvFailure) return error.detail;
    throw error;
  }
  throw new Error('expected a failure');
}

/** The resources of appEntity's production environment, read by a fresh service. */
export function readProduction(overrides: Partial<GitlabEnvConfig> = {}) {
  return createTestService(overrides).service.getEnvironmentResources(
    appEntity,
    'production',
  );
}
