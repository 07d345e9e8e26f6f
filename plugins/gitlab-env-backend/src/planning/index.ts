export { ReadPlanner } from './ReadPlanner';
export type { EnvironmentContext } from './ReadPlanner';
export { LivePlanner } from './LivePlanner';
export type { RefreshTarget } from './LivePlanner';
