export { gitlabEnvApiRef } from './GitlabEnvApi';
export type { GitlabEnvApi, PodLogsHandlers } from './GitlabEnvApi';
export { GitlabEnvClient } from './GitlabEnvClient';
export {
  GitlabEnvApiError,
  gitlabEnvErrorDetail,
  isGitlabEnvApiError,
} from './GitlabEnvApiError';
export { GitlabEnvLiveError } from './live/GitlabEnvLiveError';
export { GitlabEnvLiveClient } from './live/GitlabEnvLiveClient';
export type { GitlabEnvLiveClientOptions } from './live/GitlabEnvLiveClient';
export { gitlabEnvLiveApiRef } from './live/GitlabEnvLiveApi';
export type {
  GitlabEnvLiveApi,
  LiveConnection,
  LiveEnvironmentState,
  LiveFollowOptions,
} from './live/GitlabEnvLiveApi';
export { gitlabEnvHistoryApiRef } from './GitlabEnvHistoryApi';
export type { GitlabEnvHistoryApi, TimelineQuery } from './GitlabEnvHistoryApi';
export { GitlabEnvHistoryClient } from './GitlabEnvHistoryClient';
