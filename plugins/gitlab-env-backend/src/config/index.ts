export {
  DEFAULT_PLATFORM_NAMESPACES,
  readGitlabEnvConfig,
} from './readGitlabEnvConfig';
export type {
  GitlabEnvConfig,
  GitlabInstanceConfig,
  LiveSettings,
  OwnershipSettings,
} from './readGitlabEnvConfig';
export { readHealthRules } from './readHealthRules';
export { readTimelineConfig } from './readTimelineConfig';
export type { TimelineSettings } from './readTimelineConfig';
