export {
  likelyCause,
  resourceName,
  resourcesNamed,
  resourceSummary,
  shortMessage,
  unhealthyResources,
} from './compactAnswers';
export type {
  LikelyCause,
  ResourceSummaryAnswer,
  UnhealthyResourcesAnswer,
} from './compactAnswers';
export { environmentsAnswer } from './environmentsAnswer';
export type { EnvironmentLine, EnvironmentsAnswer } from './environmentsAnswer';
export { changeLine, recentChangesAnswer } from './recentChanges';
export type { RecentChangesAnswer } from './recentChanges';
