import { HealthAssessment, KubernetesObject } from '../../types';
import { health } from '../conditions';
import { isRecord, num, specOf, statusOf } from '../../k8s/objects';

/** ArgoCD's `health_statefulset.go`, partitioned and OnDelete rollouts included. */
export function statefulSetHealth(obj: KubernetesObject): HealthAssessment {
  const spec = specOf(obj);
  const status = statusOf(obj);
  const observed = num(status.observedGeneration);
  if (observed === 0 || num(obj.metadata?.generation) > observed) {
    return health(
      'Progressing',
      'Waiting for statefulset spec update to be observed...',
    );
  }
  const ready = num(status.readyReplicas);
  if (typeof spec.replicas === 'number' && ready < spec.replicas) {
    return health(
      'Progressing',
      `Waiting for ${spec.replicas - ready} pods to be ready...`,
    );
  }
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
  const updated = num(status.updatedReplicas);
  if (strategy.type === 'RollingUpdate' && isRecord(strategy.rollingUpdate)) {
    const partition = strategy.rollingUpdate.partition;
    if (
      typeof spec.replicas === 'number' &&
      typeof partition === 'number' &&
      updated < spec.replicas - partition
    ) {
      return health(
        'Progressing',
        `Waiting for partitioned roll out to finish: ${updated} out of ${
          spec.replicas - partition
        } new pods have been updated...`,
      );
    }
    return health(
      'Healthy',
      `partitioned roll out complete: ${updated} new pods have been updated...`,
    );
  }
  if (strategy.type === 'OnDelete') {
    return health('Healthy', `statefulset has ${ready} ready pods`);
  }
  if (status.updateRevision !== status.currentRevision) {
    return health(
      'Progressing',
      `waiting for statefulset rolling update to complete ${updated} pods at revision ${
        status.updateRevision ?? ''
      }...`,
    );
  }
  return health(
    'Healthy',
    `statefulset rolling update complete ${num(
      status.currentReplicas,
    )} pods at revision ${status.currentRevision ?? ''}...`,
  );
}
