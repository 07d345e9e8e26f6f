import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { decidingCondition } from '../readyCondition';

/**
 * Karpenter NodePool (Argo CD's karpenter.sh/NodePool): the Ready
 * condition, else a NodeClass that is not ready (Degraded).
 */
export function karpenterNodePoolHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const ready = decidingCondition(obj, 'Ready');
  if (ready) return ready;
  const nodeClass = conditionsOf(obj).find(
    c => c.type === 'NodeClassReady' && c.status === 'False',
  );
  if (nodeClass) return health('Degraded', nodeClass.message);
  return health('Progressing', 'Waiting for NodePool to be ready');
}
