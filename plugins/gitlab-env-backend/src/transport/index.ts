export { SharedTransport } from './SharedTransport';
export type { GitlabEnvTransport, Limit } from './SharedTransport';
