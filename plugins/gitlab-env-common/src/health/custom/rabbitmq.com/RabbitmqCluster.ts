import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, specOf } from '../../../k8s/objects';

/**
 * RabbitMQ cluster operator RabbitmqCluster (Argo CD's
 * rabbitmq.com/RabbitmqCluster): a failed reconcile is Degraded; Healthy
 * needs ClusterAvailable and AllReplicasReady both True.
 */
export function rabbitmqClusterHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status) || !Array.isArray(obj.status.conditions))
    return health('Progressing', 'Waiting for RabbitMQ Operator');
  let available: string | undefined;
  let replicas: { status: string; reason?: string } | undefined;
  for (const c of conditionsOf(obj)) {
    if (c.type === 'ReconcileSuccess' && c.status === 'False')
      return health('Degraded', c.message);
    if (c.type === 'ClusterAvailable') available = c.status;
    if (c.type === 'AllReplicasReady') replicas = c;
  }
  if (available === 'Unknown' || replicas?.status === 'Unknown')
    return health(
      'Progressing',
      'Waiting for RabbitMQ cluster readiness (conditions unknown)',
    );
  if (
    replicas?.reason === 'ScaledToZero' &&
    replicas.status === 'False' &&
    specOf(obj).replicas === 0
  )
    return health('Suspended', 'RabbitmqCluster is scaled to 0 replicas');
  if (available === 'False')
    return health('Progressing', 'Waiting for RabbitMQ cluster formation');
  if (replicas?.status === 'False')
    return health('Progressing', 'Waiting for RabbitMQ instances ready');
  if (available === 'True' && replicas?.status === 'True')
    return health('Healthy', 'RabbitMQ cluster ready');
  return health('Progressing', 'Waiting for RabbitMQ Operator');
}
