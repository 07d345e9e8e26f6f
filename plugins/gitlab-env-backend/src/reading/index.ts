export { adopterObjectSource } from './clusterSources';
export type {
  ClusterAccess,
  GitlabEnvClusterSource,
  GitlabEnvClusterTarget,
} from './clusterSources';
export type { ListableKind } from './discovery';
export type { ObjectRef } from './objectSource';
