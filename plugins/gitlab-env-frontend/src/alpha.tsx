/**
 * The GitLab environments plugin for Backstage's new frontend system.
 *
 * @packageDocumentation
 */
import * as React from 'react';
import {
  ApiBlueprint,
  PageBlueprint,
  createFrontendPlugin,
} from '@backstage/frontend-plugin-api';
import { EntityContentBlueprint } from '@backstage/plugin-catalog-react/alpha';
import {
  convertLegacyRouteRef,
  convertLegacyRouteRefs,
} from '@backstage/core-compat-api';
import CloudQueueIcon from '@mui/icons-material/CloudQueue';
import {
  gitlabEnvApiFactory,
  gitlabEnvHistoryApiFactory,
  gitlabEnvLiveApiFactory,
} from './plugin';
import { isGitlabEnvAvailable } from './isGitlabEnvAvailable';
import { overviewRouteRef, rootRouteRef } from './routes';

const gitlabEnvApi = ApiBlueprint.make({
  params: defineParams => defineParams(gitlabEnvApiFactory),
});

const gitlabEnvLiveApi = ApiBlueprint.make({
  name: 'live',
  params: defineParams => defineParams(gitlabEnvLiveApiFactory),
});

const gitlabEnvHistoryApi = ApiBlueprint.make({
  name: 'history',
  params: defineParams => defineParams(gitlabEnvHistoryApiFactory),
});

const entityEnvironmentsContent = EntityContentBlueprint.make({
  params: {
    path: 'gitlab-env',
    title: 'Environments',
    filter: isGitlabEnvAvailable,
    routeRef: convertLegacyRouteRef(rootRouteRef),
    loader: () =>
      import('./components/EntityGitlabEnvContent').then(m => (
        <m.EntityGitlabEnvContent />
      )),
  },
});

const overviewPage = PageBlueprint.make({
  params: {
    path: '/gitlab-env',
    title: 'Deployments',
    icon: <CloudQueueIcon fontSize="inherit" />,
    routeRef: convertLegacyRouteRef(overviewRouteRef),
    loader: () =>
      import('./components/OverviewPage').then(m => (
        <m.GitlabEnvOverviewPage />
      )),
  },
});

/**
 * The plugin for Backstage's new frontend system: the API, the entity tab
 * (shown for entities with a GitLab project annotation) and the deployment
 * overview page with its navigation item.
 *
 * @alpha
 */
export default createFrontendPlugin({
  pluginId: 'gitlab-env',
  title: 'Deployments',
  icon: <CloudQueueIcon fontSize="inherit" />,
  routes: convertLegacyRouteRefs({
    root: rootRouteRef,
    overview: overviewRouteRef,
  }),
  extensions: [
    gitlabEnvApi,
    gitlabEnvLiveApi,
    gitlabEnvHistoryApi,
    entityEnvironmentsContent,
    overviewPage,
  ],
});
