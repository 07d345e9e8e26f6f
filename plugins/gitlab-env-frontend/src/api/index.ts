export { gitlabEnvApiRef } from './GitlabEnvApi';
export type { GitlabEnvApi, PodLogsHandlers } from './GitlabEnvApi';
export { GitlabEnvClient } from './GitlabEnvClient';
export { GitlabEnvApiError, isGitlabEnvApiError } from './GitlabEnvApiError';
