import {
  createApiFactory,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import {
  GitlabEnvClient,
  GitlabEnvHistoryClient,
  GitlabEnvLiveClient,
  gitlabEnvApiRef,
  gitlabEnvHistoryApiRef,
  gitlabEnvLiveApiRef,
} from './api';
import type { EntityGitlabEnvContentProps } from './components/EntityGitlabEnvContent';
import { overviewRouteRef, rootRouteRef } from './routes';

/** @public */
export const gitlabEnvApiFactory = createApiFactory({
  api: gitlabEnvApiRef,
  deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
  factory: ({ discoveryApi, fetchApi }) =>
    new GitlabEnvClient({ discoveryApi, fetchApi }),
});

/** One live stream per browser tab: the API instance is the tab's. @public */
export const gitlabEnvLiveApiFactory = createApiFactory({
  api: gitlabEnvLiveApiRef,
  deps: {
    discoveryApi: discoveryApiRef,
    fetchApi: fetchApiRef,
    gitlabEnvApi: gitlabEnvApiRef,
  },
  factory: ({ discoveryApi, fetchApi, gitlabEnvApi }) =>
    new GitlabEnvLiveClient({ discoveryApi, fetchApi, gitlabEnvApi }),
});

/** What changed and when: deployments, rollbacks, the timeline, versions. @public */
export const gitlabEnvHistoryApiFactory = createApiFactory({
  api: gitlabEnvHistoryApiRef,
  deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
  factory: ({ discoveryApi, fetchApi }) =>
    new GitlabEnvHistoryClient({ discoveryApi, fetchApi }),
});

/** The plugin for Backstage's classic frontend system. @public */
export const gitlabEnvPlugin = createPlugin({
  id: 'gitlab-env',
  apis: [
    gitlabEnvApiFactory,
    gitlabEnvLiveApiFactory,
    gitlabEnvHistoryApiFactory,
  ],
  routes: { root: rootRouteRef, overview: overviewRouteRef },
});

/**
 * The entity tab: the entity's GitLab environments, their health and the
 * graph of their Kubernetes resources.
 *
 * @public
 */
export const EntityGitlabEnvContent: (
  props: EntityGitlabEnvContentProps,
) => JSX.Element = gitlabEnvPlugin.provide(
  createRoutableExtension({
    name: 'EntityGitlabEnvContent',
    component: () =>
      import('./components/EntityGitlabEnvContent').then(
        m => m.EntityGitlabEnvContent,
      ),
    mountPoint: rootRouteRef,
  }),
);

/** The portal-wide overview of deployments. @public */
export const GitlabEnvOverviewPage: () => JSX.Element = gitlabEnvPlugin.provide(
  createRoutableExtension({
    name: 'GitlabEnvOverviewPage',
    component: () =>
      import('./components/OverviewPage').then(m => m.GitlabEnvOverviewPage),
    mountPoint: overviewRouteRef,
  }),
);
