export {
  createHistoryRouter,
  gitlabRollbackRoute,
  timelineRoute,
} from './createHistoryRouter';
export type {
  DeploymentParams,
  HistoryRouterOptions,
} from './createHistoryRouter';
export { DeploymentHistory } from './deploymentHistory';
export { EnvironmentVersions } from './versions';
export { MergeRequestPreviews } from './mergeRequestPreview';
export { GitlabAccess } from './gitlabAccess';
export { TimelineStore } from './timeline/TimelineStore';
export { TimelineRecorder } from './timeline/TimelineRecorder';
export { TIMELINE_RECORDING } from './timeline/recentChanges';
