export { readGitlabEnvConfig } from './readGitlabEnvConfig';
export type {
  GitlabEnvConfig,
  GitlabInstanceConfig,
  LiveSettings,
} from './readGitlabEnvConfig';
export { readHealthRules } from './readHealthRules';
export { readTimelineConfig } from './readTimelineConfig';
export type { TimelineSettings } from './readTimelineConfig';
