export { DeploymentHistory } from './DeploymentHistory';
export { WorkloadRevisions } from './WorkloadRevisions';
export { Timeline } from './Timeline';
export { EntityVersionsView, VersionMatrix } from './VersionMatrix';
export { MergeRequestPreviews } from './MergeRequestPreviews';
