/**
 * Backstage backend plugin: from a catalog entity to its GitLab environments,
 * their agents and the Kubernetes resources deployed to them, read through KAS.
 *
 * @packageDocumentation
 */
export { gitlabEnvPlugin as default } from './plugin';
export * from './facade';
export { readGitlabEnvConfig } from './config';
export { gitlabAgentClustersServiceRef } from './agentClusters';
export type {
  GitlabAgentCluster,
  GitlabAgentClusterList,
  GitlabAgentClustersService,
} from './agentClusters';
export {
  gitlabEnvHealthRulesExtensionPoint,
  gitlabEnvLocatorExtensionPoint,
  gitlabEnvObjectSourceExtensionPoint,
  gitlabEnvRelationsExtensionPoint,
} from './extensions';
export type {
  GitlabEnvHealthRulesExtensionPoint,
  GitlabEnvLocatorExtensionPoint,
  GitlabEnvObjectSourceExtensionPoint,
  GitlabEnvRelationsExtensionPoint,
} from './extensions';
export { isValidLabelSelector } from './locating';
export type {
  GitlabEnvLocator,
  LocateOptions,
  LocatedEntity,
} from './locating';
export type { RefreshTarget } from './planning';
export type {
  GitlabEnvClusterSource,
  GitlabEnvClusterTarget,
  ListableKind,
  ObjectRef,
} from './reading';
export type {
  GitlabEnvConfig,
  GitlabInstanceConfig,
  LiveSettings,
  OwnershipSettings,
} from './config';
