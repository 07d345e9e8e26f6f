export { GitlabEnvOverviewPage } from './GitlabEnvOverviewPage';
