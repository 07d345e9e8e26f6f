export * from './grammars';
export * from './kubePaths';
export * from './environmentValues';
