export { SharedTransport } from './SharedTransport';
export type { GitlabEnvTransport, Limit } from './SharedTransport';
export { gitlabEnvTransportServiceRef } from './transportServiceRef';
