/**
 * Backstage backend plugin: from a catalog entity to its GitLab environments,
 * their agents and the Kubernetes resources deployed to them, read through KAS.
 *
 * @packageDocumentation
 */
export { gitlabEnvPlugin as default } from './plugin';
