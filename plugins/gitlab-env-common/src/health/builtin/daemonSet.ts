import { HealthAssessment, KubernetesObject } from '../../types';
import { generationBehind, health } from '../conditions';
import { isRecord, num, specOf, statusOf } from '../../k8s/objects';

/** ArgoCD's `health_daemonset.go`. */
export function daemonSetHealth(obj: KubernetesObject): HealthAssessment {
  const spec = specOf(obj);
  const status = statusOf(obj);
  const name = obj.metadata?.name ?? '';
  if (generationBehind(obj)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed daemon set generation less than desired generation',
    );
  }
  const desired = num(status.desiredNumberScheduled);
  const updated = num(status.updatedNumberScheduled);
  if (
    isRecord(spec.updateStrategy) &&
    spec.updateStrategy.type === 'OnDelete'
  ) {
    return health(
      'Healthy',
      `daemon set ${updated} out of ${desired} new pods have been updated`,
    );
  }
  if (updated < desired) {
    return health(
      'Progressing',
      `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    );
  }
  const available = num(status.numberAvailable);
  if (available < desired) {
    return health(
      'Progressing',
      `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
    );
  }
  return health('Healthy');
}
