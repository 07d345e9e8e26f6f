import { BackendFeature } from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import {
  DEMO_TOKEN,
  RunningSimulator,
  SimulatorOptions,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import { gitlabEnvPlugin } from '../plugin';

/** A catalog Component with the given annotations. */
export function component(
  name: string,
  annotations: Record<string, string>,
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, namespace: 'default', annotations },
    spec: { type: 'service', owner: 'team', lifecycle: 'production' },
  };
}

/**
 * A catalog Component registered from a catalog-info.yaml in its project's
 * repository on the simulator's instance (the catalog sets
 * backstage.io/managed-by-location so): its claim on the project is
 * verified, so it may act on what its environments own.
 */
export function ownedComponent(
  name: string,
  projectPath: string,
  annotations: Record<string, string> = {},
): Entity {
  return component(name, {
    'gitlab.com/project-slug': projectPath,
    'backstage.io/managed-by-location': `url:https://gitlab.example.com/${projectPath}/-/blob/main/catalog-info.yaml`,
    ...annotations,
  });
}

/** acme/shop/storefront's entity, verified (see ownedComponent). */
export const storefrontComponent = () =>
  ownedComponent('storefront', 'acme/shop/storefront');

/**
 * KAS's tunnel search, scaled down from its real 20 s so tests of a
 * disconnected agent stay fast; the backend's first-request timeout (25 s by
 * default) stays above it, as it does above the real one.
 */
export const TEST_KAS_TUNNELS = { findTimeoutMs: 200 };

/** A simulator for a test: a free port, no clock of its own, KAS's search scaled down. */
export function startTestSimulator(options: SimulatorOptions = {}) {
  return startGitlabSimulator({
    port: 0,
    tickMs: 0,
    kasTunnels: TEST_KAS_TUNNELS,
    ...options,
  });
}

/**
 * The simulator's instance with a rollback token (`gitlabEnv.instances`):
 * glpat-bob is a Developer of acme/shop with the api scope, so GitLab's
 * rollback may re-run jobs of unprotected environments.
 */
export const instancesWithRollbackToken = (
  simulator: Pick<RunningSimulator, 'url'>,
) => [
  {
    host: 'gitlab.example.com',
    baseUrl: simulator.url,
    token: DEMO_TOKEN,
    rollbackToken: 'glpat-bob',
  },
];

/**
 * The gitlab-env plugin in a test backend whose one GitLab instance is the
 * simulator, with a catalog of the given entities. Used by the integration
 * tests and the benchmarks, so they all configure the plugin the same way.
 */
export function startBackendOnSimulator(
  simulator: Pick<RunningSimulator, 'url'>,
  options: {
    entities: Entity[];
    /** Other `gitlabEnv` settings: timeouts, cache, concurrency. */
    gitlabEnv?: Record<string, unknown>;
    /** Extra features, such as a permissions mock. */
    features?: BackendFeature[];
    /** Other configuration beside `gitlabEnv`, such as `backend.cache`. */
    config?: Record<string, unknown>;
  },
) {
  return startTestBackend({
    features: [
      gitlabEnvPlugin,
      catalogServiceMock.factory({ entities: options.entities }),
      mockServices.rootConfig.factory({
        data: {
          ...options.config,
          gitlabEnv: {
            instances: [
              {
                host: 'gitlab.example.com',
                baseUrl: simulator.url,
                token: DEMO_TOKEN,
              },
            ],
            ...options.gitlabEnv,
          },
        },
      }),
      ...(options.features ?? []),
    ],
  });
}
