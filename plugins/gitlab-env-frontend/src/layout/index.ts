export { layoutResourceGraph } from './layoutResourceGraph';
export type {
  LayoutForest,
  LayoutOptions,
  NodePosition,
  ResourceGraphLayout,
} from './layoutResourceGraph';
export { relayoutKeepingPlaces } from './relayoutKeepingPlaces';
export { routeEdges } from './routeEdges';
export type { Point, RoutableEdge } from './routeEdges';
export { NODE_HEIGHT, NODE_WIDTH } from './nodeSize';
