export {
  actionsForKind,
  actionAppliesTo,
  capabilitiesForKind,
  isFluxActionKind,
  reconcilesWithSource,
} from './actionKinds';
export { fluxSourceOf } from './fluxSource';
export {
  kubectlCommandFor,
  kubectlRolloutHistoryCommand,
} from './kubectlCommand';
export { shellWord } from './shellWord';
export type { KubectlCommandOptions } from './kubectlCommand';
export { permissionForCapability } from './actionPermissions';
