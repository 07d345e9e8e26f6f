export { layoutResourceGraph } from './layoutResourceGraph';
export type {
  LayoutForest,
  LayoutOptions,
  NodePosition,
  ResourceGraphLayout,
} from './layoutResourceGraph';
export { relayoutKeepingPlaces } from './relayoutKeepingPlaces';
