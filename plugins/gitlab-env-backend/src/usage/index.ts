export { EnvironmentUsage, readUsageSettings } from './environmentUsage';
export type { UsageSettings, UsageTarget } from './environmentUsage';
export { UsageSampler } from './UsageSampler';
