export { UsagePanel, USAGE_KINDS } from './UsagePanel';
