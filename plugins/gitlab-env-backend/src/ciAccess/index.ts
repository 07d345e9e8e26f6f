export { CiAccessService } from './CiAccessService';
export type { CiAccessOptions } from './CiAccessService';
export { createCiAccessRouter } from './createCiAccessRouter';
