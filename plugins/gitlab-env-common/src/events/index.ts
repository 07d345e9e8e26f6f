export { resourceEvents } from './resourceEvents';
export type { ResourceEventSummary } from './resourceEvents';
export { eventSubjectMatcher, isEventAbout } from './eventSubject';
export type { EventSubject } from './eventSubject';
