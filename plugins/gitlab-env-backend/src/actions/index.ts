export { createActionsRouter } from './createActionsRouter';
export type { ActionsRouterOptions } from './createActionsRouter';
export { environmentActionRoute } from './environmentActionRoute';
export type {
  ActionWritten,
  EnvironmentActionDeps,
} from './environmentActionRoute';
export { podLogsSpec, withPodLog } from './podLogsRoute';
export type { OpenedPodLog, PodLogsDeps } from './podLogsRoute';
export { FollowedLogs } from './followedLogs';
export { readActionsConfig } from './actionsConfig';
export type { ActionsConfig } from './actionsConfig';
export { listsAfterWrite } from './refreshAfterWrite';
