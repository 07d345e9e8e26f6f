export {
  actionsForKind,
  actionAppliesTo,
  capabilitiesForKind,
  isFluxActionKind,
  reconcilesWithSource,
} from './actionKinds';
export { fluxSourceOf } from './fluxSource';
export { kubectlCommandFor } from './kubectlCommand';
export type { KubectlCommandOptions } from './kubectlCommand';
export { permissionForCapability } from './actionPermissions';
