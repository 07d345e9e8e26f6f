import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/** Confluent for Kubernetes Kafka (Argo CD's platform.confluent.io/Kafka): its phase. */
export function confluentKafkaHealth(obj: KubernetesObject): HealthAssessment {
  const phase = statusOf(obj).phase;
  if (phase === 'RUNNING') return health('Healthy', 'Kafka running');
  if (phase === 'PROVISIONING')
    return health('Progressing', 'Kafka provisioning');
  return health('Progressing', 'Waiting for Kafka');
}
