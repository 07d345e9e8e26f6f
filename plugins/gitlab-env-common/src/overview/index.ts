export * from './types';
export * from './rows';
export * from './filtersQuery';
