export { buildResourceGraph } from './buildResourceGraph';
export type { BuildResourceGraphOptions } from './buildResourceGraph';
export { summarizeGraphHealth } from './summarizeGraphHealth';
export {
  groupOfApiVersion,
  parseResourceId,
  resourceId,
  resourceKeyOf,
  versionOfApiVersion,
} from './resourceId';
export {
  fluxInventoryKeys,
  parseFluxInventoryId,
  parseFluxResourcePath,
} from './flux';
export type { FluxResourcePath } from './flux';
export { LiveResourceGraph } from './live/LiveResourceGraph';
export { objectsByNodeId } from './objectsByNodeId';
export { resourceTree, treePath } from './resourceTree';
export type { ResourceTree, TreePlace } from './resourceTree';
export { applyResourceGraphPatch } from './live/applyResourceGraphPatch';
export type { PatchableResources } from './live/applyResourceGraphPatch';
