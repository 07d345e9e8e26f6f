export { createDiagnosticsRouter } from './createDiagnosticsRouter';
export type { DiagnosticsRouterOptions } from './createDiagnosticsRouter';
export { DiagnosticsRecorder } from './DiagnosticsRecorder';
