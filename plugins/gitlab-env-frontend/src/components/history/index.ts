export { DeploymentHistory } from './DeploymentHistory';
export { WorkloadRevisions } from './WorkloadRevisions';
export { Timeline } from './Timeline';
export { EntityVersionsView, VersionMatrix } from './VersionMatrix';
export { SystemVersions } from './SystemVersions';
export { MergeRequestPreviews } from './MergeRequestPreviews';
