export { createRouter } from './createRouter';
export type { RouterOptions } from './createRouter';
export { createLiveRouter } from './createLiveRouter';
export { annotatedEntities } from './annotatedEntities';
export { RequestPipeline } from './pipeline';
export type {
  PipelineCall,
  PipelineDeps,
  RawParameters,
  RouteContext,
  RouteSpec,
} from './pipeline';
export { route, routeErrors } from './route';
