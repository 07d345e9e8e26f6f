export { createActionsRouter } from './createActionsRouter';
export type {
  ActionsRouterOptions,
  ActionWritten,
} from './createActionsRouter';
export { readActionsConfig } from './actionsConfig';
export type { ActionsConfig } from './actionsConfig';
export { listsAfterWrite } from './refreshAfterWrite';
