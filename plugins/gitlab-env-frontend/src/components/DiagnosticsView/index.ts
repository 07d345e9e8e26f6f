export { DiagnosticsView } from './DiagnosticsView';
