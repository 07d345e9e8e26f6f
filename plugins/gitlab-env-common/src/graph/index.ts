export { buildResourceGraph } from './buildResourceGraph';
export { createRelationSet, PARENT_RANK } from './relations';
export type {
  RelationContext,
  RelationSet,
  RelationSource,
  RelationSourceKind,
} from './relations';
export type { BuildResourceGraphOptions } from './buildResourceGraph';
export { summarizeGraphHealth } from './summarizeGraphHealth';
export { LiveResourceGraph } from './LiveResourceGraph';
export { objectsByNodeId } from './objectsByNodeId';
export { resourceTree, treePath } from './resourceTree';
export type { ResourceTree, TreePlace } from './resourceTree';
export { applyResourceGraphPatch } from './applyResourceGraphPatch';
export type { PatchableResources } from './applyResourceGraphPatch';
