export { EntityGitlabEnvContent } from './EntityGitlabEnvContent';
export type { EntityGitlabEnvContentProps } from './EntityGitlabEnvContent';
