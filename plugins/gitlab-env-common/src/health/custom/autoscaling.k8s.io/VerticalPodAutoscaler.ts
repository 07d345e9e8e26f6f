import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';

/**
 * VerticalPodAutoscaler (Argo CD's autoscaling.k8s.io/VerticalPodAutoscaler):
 * no pods matched is Degraded; a recommendation provided is Healthy.
 */
export function verticalPodAutoscalerHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const conditions = conditionsOf(obj);
  const noPods = conditions.find(
    c => c.type === 'NoPodsMatched' && c.status === 'True',
  );
  if (noPods)
    return health(
      'Degraded',
      noPods.message || noPods.reason || 'No pods match the VPA selector',
    );
  if (
    conditions.some(
      c => c.type === 'RecommendationProvided' && c.status === 'True',
    )
  )
    return health('Healthy', 'VPA recommendation provided');
  return health('Progressing', 'Waiting for VPA recommendation');
}
