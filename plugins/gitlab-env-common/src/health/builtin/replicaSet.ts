import { HealthAssessment, KubernetesObject } from '../../types';
import { findCondition, generationBehind, health } from '../conditions';
import { num, specOf, statusOf } from '../../k8s/objects';

/** ArgoCD's `health_replicaset.go`. */
export function replicaSetHealth(obj: KubernetesObject): HealthAssessment {
  if (generationBehind(obj)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed replica set generation less than desired generation',
    );
  }
  const failure = findCondition(obj, 'ReplicaFailure');
  if (failure?.status === 'True') return health('Degraded', failure.message);
  const replicas = specOf(obj).replicas;
  const available = num(statusOf(obj).availableReplicas);
  if (typeof replicas === 'number' && available < replicas) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${available} out of ${replicas} new replicas are available...`,
    );
  }
  return health('Healthy');
}
