export { assembleRead, environmentErrors, markPartial } from './assembleRead';
export type { EnvironmentRead, Judging } from './assembleRead';
export { LiveEnvironment } from './LiveEnvironment';
export type { LiveTarget } from './liveTarget';
