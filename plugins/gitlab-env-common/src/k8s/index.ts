export {
  groupOfApiVersion,
  parseResourceId,
  resourceId,
  resourceKeyOf,
  versionOfApiVersion,
} from './resourceId';
export {
  fluxDependenciesOf,
  fluxDependencyOf,
  fluxInventoryKeys,
  fluxOwnerByLabels,
  fluxSourceKeyOf,
  isFluxApplier,
  isFluxObject,
  isFluxSource,
  parseFluxInventoryId,
  parseFluxResourcePath,
} from './flux';
export type { FluxResourcePath } from './flux';
export { statusWords } from './statusWords';
