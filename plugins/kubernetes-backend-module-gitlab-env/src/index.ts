/**
 * A module for `@backstage/plugin-kubernetes-backend`: the GitLab agents for
 * Kubernetes the configured token may use, as clusters reached through the
 * GitLab agent server (KAS).
 *
 * @packageDocumentation
 */
export { kubernetesModuleGitlabEnv as default } from './module';
export { GITLAB_AGENT_AUTH_PROVIDER } from './authMetadata';
