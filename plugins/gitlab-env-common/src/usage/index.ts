export * from './types';
export { parseQuantity } from './quantity';
export {
  computeUsage,
  kubectlTop,
  ownerIndex,
  podKey,
  USAGE_WORKLOAD_KINDS,
  workloadOf,
  workloadSelector,
} from './computeUsage';
