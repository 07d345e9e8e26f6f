export { AgentAccess } from './AgentAccess';
export type { EnvironmentContext } from './AgentAccess';
export { LivePlanner } from './LivePlanner';
export type { ReadFreshness, RefreshTarget, SharedStore } from './LivePlanner';
