/**
 * Backstage backend plugin: from a catalog entity to its GitLab environments,
 * their agents and the Kubernetes resources deployed to them, read through KAS.
 *
 * @packageDocumentation
 */
export { gitlabEnvPlugin as default } from './plugin';
export * from './service';
export { readGitlabEnvConfig } from './config';
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
export type { GitlabEnvLocator, LocatedEntity } from './locating';
export type {
  GitlabEnvClusterSource,
  GitlabEnvClusterTarget,
  RefreshTarget,
} from './planning';
export type { ListableKind } from './service/discovery';
export type { ObjectRef } from './service/objectSource';
export type {
  GitlabEnvConfig,
  GitlabInstanceConfig,
  LiveSettings,
} from './config';
