export { environmentTree } from './environmentTree';
export { environmentObject } from './environmentObject';
export { LiveTree } from './LiveTree';
export { TreeReader } from './TreeReader';
export { MalformedTreeError } from './wire';
export { TREE_FORMAT_VERSION } from './types';
export type {
  EnvironmentObjectResponse,
  EnvironmentTree,
  LiveTreeMessage,
  ObjectGitOps,
  TreeEdge,
  TreeFluxState,
  TreeGraph,
  TreeKind,
  TreeNode,
  TreePatch,
  TreeSnapshot,
  TreeWireChange,
  TreeWireNode,
} from './types';
