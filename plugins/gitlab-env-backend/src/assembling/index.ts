export { environmentErrors, markPartial } from './environmentErrors';
export type { Judging } from './environmentErrors';
export { LiveEnvironment } from './LiveEnvironment';
export type { LiveTarget } from './liveTarget';
