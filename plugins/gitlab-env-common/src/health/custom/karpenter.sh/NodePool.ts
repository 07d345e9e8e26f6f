import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';

/**
 * Karpenter NodePool (Argo CD's karpenter.sh/NodePool): the Ready
 * condition, else a NodeClass that is not ready (Degraded).
 */
export function karpenterNodePoolHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const conditions = conditionsOf(obj);
  const ready = conditions.find(
    c => c.type === 'Ready' && (c.status === 'True' || c.status === 'False'),
  );
  if (ready)
    return health(
      ready.status === 'True' ? 'Healthy' : 'Degraded',
      ready.message,
    );
  const nodeClass = conditions.find(
    c => c.type === 'NodeClassReady' && c.status === 'False',
  );
  if (nodeClass) return health('Degraded', nodeClass.message);
  return health('Progressing', 'Waiting for NodePool to be ready');
}
