export { createRouter } from './createRouter';
export type { RouterOptions } from './createRouter';
export { createLiveRouter } from './createLiveRouter';
