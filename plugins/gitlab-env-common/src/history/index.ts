export { podTemplateDiff } from './templateDiff';
export {
  hasRolloutHistory,
  rolloutUndoPlan,
  templateImages,
  workloadRevisions,
} from './workloadRevisions';
export type { RolloutUndoPlan } from './workloadRevisions';
export { healthCauseOf } from './healthCause';
export type { HealthCause } from './healthCause';
export {
  actionTimelineRecord,
  deploymentTimelineRecord,
  healthTransitionRecord,
  objectLink,
  timelineRecordsOf,
} from './timelineRecords';
export type { TimelineRecord } from './timelineRecords';
export { workloadManager } from './workloadManager';
export { environmentImages, promotionDiff } from './promotionDiff';
export {
  deploymentImageChanges,
  fluxAppliedAt,
  revisionOfDeployment,
} from './deploymentImages';
export type { DeployedCommit } from './deploymentImages';
