export { createOverviewRouter } from './createOverviewRouter';
export type { OverviewRouterOptions } from './createOverviewRouter';
