/**
 * Backstage backend plugin: from a catalog entity to its GitLab environments,
 * their agents and the Kubernetes resources deployed to them, read through KAS.
 *
 * @packageDocumentation
 */
export { gitlabEnvPlugin as default } from './plugin';
export * from './service';
export { readGitlabEnvConfig } from './config';
export { gitlabEnvHealthRulesExtensionPoint } from './extensions';
export type { GitlabEnvHealthRulesExtensionPoint } from './extensions';
export type { GitlabEnvConfig, GitlabInstanceConfig } from './config';
