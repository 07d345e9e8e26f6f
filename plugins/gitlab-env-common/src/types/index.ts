export * from './kubernetes';
export * from './health';
export * from './graph';
export * from './errors';
export * from './api';
export * from './diagnostics';
export * from './live';
export * from './actions';
