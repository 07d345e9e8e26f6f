export { createRouter } from './createRouter';
export type { RouterOptions } from './createRouter';
export { createLiveRouter } from './createLiveRouter';
export { annotatedEntities } from './annotatedEntities';
export { principalName, RequestPipeline } from './pipeline';
export type {
  PipelineCall,
  PipelineDeps,
  RawParameters,
  RouteContext,
  RouteCore,
  RouteSpec,
} from './pipeline';
export {
  environmentResourcesRoute,
  environmentsListRoute,
} from './environmentReads';
export { route, routeErrors } from './route';
