export { buildGitOpsView } from './gitOpsView';
export { driftedCount, environmentDrift, NO_DRIFT } from './environmentDrift';
export type { FluxObjectView, FluxSourceLink, GitOpsView } from './gitOpsView';
export { fluxSyncState } from './syncState';
export type { FluxSyncState, FluxSyncStatus } from './syncState';
export { fluxHistory } from './history';
export type { FluxHistoryEntry, FluxHistoryOutcome } from './history';
export {
  driftOf,
  fluxDriftCondition,
  fluxDriftEvents,
  FLUX_FIELD_MANAGERS,
  foreignFieldManagers,
  lastAppliedChanges,
} from './drift';
export type { FluxDriftEventEntry } from './drift';
export { diffDesiredLive } from './fieldDiff';
export { fieldManagers, formatFieldPath, ownerOfField } from './managedFields';
export type { FieldManagerEntry } from './managedFields';
export {
  appliedRevisionOf,
  revisionsDiffer,
  sourceRevisionOf,
} from './fluxSource';
export { unmanagedNodes } from './unmanaged';
export { inventoryGroups } from './inventoryGroups';
export type { InventoryGroup } from './inventoryGroups';
export { diffManifests, planKustomization } from './desiredState';
export type { KustomizationPlan } from './desiredState';
export {
  gitlabMarkerMatch,
  gitlabMarkers,
  gitlabSlugify,
} from './gitlabMarkers';
export { narrowEnvironmentObjects, narrowToEnvironment } from './narrowing';
export type { NarrowingResult } from './narrowing';
