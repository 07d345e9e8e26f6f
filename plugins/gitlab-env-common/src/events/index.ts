export { resourceEvents } from './resourceEvents';
export type { ResourceEventSummary } from './resourceEvents';
