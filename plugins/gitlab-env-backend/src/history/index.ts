export { createHistoryRouter } from './createHistoryRouter';
export type { HistoryRouterOptions } from './createHistoryRouter';
export { DeploymentHistory } from './deploymentHistory';
export { EnvironmentVersions } from './versions';
export { MergeRequestPreviews } from './mergeRequestPreview';
export { GitlabAccess } from './gitlabAccess';
export { TimelineStore } from './timeline/TimelineStore';
export { TimelineRecorder } from './timeline/TimelineRecorder';
export {
  recentEnvironmentChanges,
  TIMELINE_RECORDING,
} from './timeline/recentChanges';
