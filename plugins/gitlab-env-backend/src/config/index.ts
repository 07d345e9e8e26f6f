export { readGitlabEnvConfig } from './readGitlabEnvConfig';
export type {
  GitlabEnvConfig,
  GitlabInstanceConfig,
} from './readGitlabEnvConfig';
export { readHealthRules } from './readHealthRules';
