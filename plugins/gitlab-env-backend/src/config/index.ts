export { readGitlabEnvConfig } from './readGitlabEnvConfig';
export type {
  GitlabEnvConfig,
  GitlabInstanceConfig,
} from './readGitlabEnvConfig';
