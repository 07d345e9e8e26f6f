export { EntityGitlabEnvContent } from './EntityGitlabEnvContent';
