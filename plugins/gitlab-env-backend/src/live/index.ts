export { createLiveRouter } from './createLiveRouter';
export { LivePlanner } from './LivePlanner';
export type { RefreshTarget } from './LivePlanner';
