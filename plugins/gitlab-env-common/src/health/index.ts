export { computeHealth } from './computeHealth';
export {
  aggregateHealth,
  compareHealth,
  emptyHealthCounts,
  isWorseHealth,
  summarizeHealth,
} from './aggregate';
