import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';

/**
 * Strimzi's kinds (Argo CD's kafka.strimzi.io scripts): the first of a
 * True NotReady (Degraded; for Kafka, unless it is still creating) or a
 * True Ready.
 */
function strimziHealth(
  obj: KubernetesObject,
  waiting: string,
  creatingIsProgress: boolean,
): HealthAssessment {
  for (const c of conditionsOf(obj)) {
    if (
      c.type === 'NotReady' &&
      c.status === 'True' &&
      !(creatingIsProgress && c.reason === 'Creating')
    )
      return health('Degraded', c.message);
    if (c.type === 'Ready' && c.status === 'True') return health('Healthy');
  }
  return health('Progressing', waiting);
}

export const strimziKafkaHealth = (obj: KubernetesObject) =>
  strimziHealth(obj, 'Waiting for Kafka Cluster', true);
export const strimziKafkaTopicHealth = (obj: KubernetesObject) =>
  strimziHealth(obj, 'Waiting for Kafka Topic', false);
export const strimziKafkaConnectHealth = (obj: KubernetesObject) =>
  strimziHealth(obj, 'Waiting for Kafka Connect', false);
