/**
 * The GitLab environments plugin for Backstage: an entity's GitLab
 * environments, the health of the Kubernetes resources deployed to them
 * through the GitLab agent, and ArgoCD-style resource graphs.
 *
 * @packageDocumentation
 */
export {
  gitlabEnvPlugin,
  gitlabEnvApiFactory,
  gitlabEnvLiveApiFactory,
  gitlabEnvHistoryApiFactory,
  EntityGitlabEnvContent,
  GitlabEnvOverviewPage,
} from './plugin';
export type { EntityGitlabEnvContentProps } from './components/EntityGitlabEnvContent';
export { isGitlabEnvAvailable } from './isGitlabEnvAvailable';
export { rootRouteRef, overviewRouteRef } from './routes';
export * from './api';
