export * from './types';
export { parseQuantity } from './quantity';
export {
  computeUsage,
  kubectlTop,
  ownerIndex,
  podKey,
  workloadOf,
  workloadSelector,
} from './computeUsage';
