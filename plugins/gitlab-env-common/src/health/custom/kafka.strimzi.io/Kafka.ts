import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';

/**
 * Strimzi Kafka (Argo CD's kafka.strimzi.io/Kafka): the first of a NotReady
 * that is not still creating (Degraded) or a True Ready.
 */
export function strimziKafkaHealth(obj: KubernetesObject): HealthAssessment {
  for (const c of conditionsOf(obj)) {
    if (c.type === 'NotReady' && c.status === 'True' && c.reason !== 'Creating')
      return health('Degraded', c.message);
    if (c.type === 'Ready' && c.status === 'True') return health('Healthy');
  }
  return health('Progressing', 'Waiting for Kafka Cluster');
}
