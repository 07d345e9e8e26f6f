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
  kubectlGetCommand,
  kubectlRolloutHistoryCommand,
} from './kubectlCommand';
export { shellWord } from './shellWord';
export type { KubectlCommandOptions } from './kubectlCommand';
export { permissionForCapability } from './actionPermissions';
export {
  fluxAppliesInto,
  isAgentObject,
  isPlatformNamespace,
  readOnlyOf,
  readOnlyReason,
  targetKey,
} from './actionScope';
