export { createDiagnosticsRouter } from './createDiagnosticsRouter';
export type { DiagnosticsRouterOptions } from './createDiagnosticsRouter';
