export { CiAccessService } from './CiAccessService';
export type { CiAccessServiceDeps } from './CiAccessService';
export { createCiAccessRouter } from './createCiAccessRouter';
