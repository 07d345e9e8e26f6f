import { HealthAssessment, KubernetesObject } from '../../types';
import { findCondition, generationBehind, health } from '../conditions';
import { num, specOf, statusOf } from '../../k8s/objects';

/** ArgoCD's `health_deployment.go`. */
export function deploymentHealth(obj: KubernetesObject): HealthAssessment {
  const spec = specOf(obj);
  const status = statusOf(obj);
  if (spec.paused === true) return health('Suspended', 'Deployment is paused');
  if (generationBehind(obj)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed deployment generation less than desired generation',
    );
  }
  if (
    findCondition(obj, 'Progressing')?.reason === 'ProgressDeadlineExceeded'
  ) {
    return health(
      'Degraded',
      `Deployment "${obj.metadata?.name ?? ''}" exceeded its progress deadline`,
    );
  }
  const updated = num(status.updatedReplicas);
  const replicas = num(status.replicas);
  const available = num(status.availableReplicas);
  if (typeof spec.replicas === 'number' && updated < spec.replicas) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${updated} out of ${spec.replicas} new replicas have been updated...`,
    );
  }
  if (replicas > updated) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${
        replicas - updated
      } old replicas are pending termination...`,
    );
  }
  if (available < updated) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${available} of ${updated} updated replicas are available...`,
    );
  }
  return health('Healthy');
}
