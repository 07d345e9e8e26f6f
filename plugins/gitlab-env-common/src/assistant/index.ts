export {
  likelyCause,
  resourceName,
  resourceSummary,
  shortMessage,
  unhealthyResources,
} from './compactAnswers';
export type {
  LikelyCause,
  ResourceSummaryAnswer,
  UnhealthyResourcesAnswer,
} from './compactAnswers';
