export { computeHealth } from './computeHealth';
export {
  aggregateHealth,
  compareHealth,
  emptyHealthCounts,
  isWorseHealth,
  rollsUp,
  summarizeHealth,
} from './aggregate';
export type { ComputeHealthOptions } from './computeHealth';
export { createHealthRuleSet } from './adopterRules';
export type { HealthRuleRegistration, HealthRuleSet } from './adopterRules';
export type { HealthRule } from './rules';
export {
  compileDeclarativeHealthRule,
  parseDeclarativeHealthRules,
} from './declarative';
export type {
  DeclarativeHealthMatch,
  DeclarativeHealthRule,
} from './declarative';
