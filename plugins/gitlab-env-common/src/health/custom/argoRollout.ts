import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health, isRecord, num, specOf } from '../conditions';

/** ArgoCD's argoproj.io/Rollout check, blue-green and canary. */
export function rolloutHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status))
    return health(
      'Progressing',
      'Waiting for rollout spec update to be observed',
    );
  const status = obj.status;
  const spec = specOf(obj);
  const observed = Number(status.observedGeneration);
  if (
    Number.isFinite(observed) &&
    status.observedGeneration !== undefined &&
    observed < num(obj.metadata?.generation)
  ) {
    return health(
      'Progressing',
      'Waiting for rollout spec update to be observed',
    );
  }
  if (typeof status.phase === 'string' && status.phase) {
    const phase = status.phase === 'Paused' ? 'Suspended' : status.phase;
    if (
      [
        'Healthy',
        'Progressing',
        'Degraded',
        'Suspended',
        'Missing',
        'Unknown',
      ].includes(phase)
    ) {
      return health(phase as HealthAssessment['status'], status.message);
    }
  }
  const failed = conditionsOf(obj).find(
    c =>
      c.type === 'InvalidSpec' ||
      (c.type === 'Progressing' &&
        (c.reason === 'RolloutAborted' ||
          c.reason === 'ProgressDeadlineExceeded')),
  );
  if (failed) return health('Degraded', failed.message);
  if (
    (Array.isArray(status.pauseConditions) &&
      status.pauseConditions.length > 0) ||
    spec.paused === true
  ) {
    return health('Suspended', 'Rollout is paused');
  }
  if (!status.currentPodHash) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: status has not been reconciled.',
    );
  }
  const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const updated = num(status.updatedReplicas);
  if (updated < desired)
    return health(
      'Progressing',
      'Waiting for roll out to finish: More replicas need to be updated',
    );
  if (num(status.availableReplicas) < updated) {
    return health(
      'Progressing',
      'Waiting for roll out to finish: updated replicas are still becoming available',
    );
  }
  const stable =
    status.stableRS ??
    (isRecord(status.canary) ? status.canary.stableRS : undefined) ??
    '';
  const strategy = isRecord(spec.strategy) ? spec.strategy : {};
  if (strategy.blueGreen) {
    const active = isRecord(status.blueGreen)
      ? status.blueGreen.activeSelector
      : undefined;
    if (active !== status.currentPodHash)
      return health('Progressing', 'active service cutover pending');
    if (stable && stable !== status.currentPodHash)
      return health('Progressing', 'waiting for analysis to complete');
  } else if (strategy.canary) {
    if (num(status.replicas) > updated) {
      return health(
        'Progressing',
        'Waiting for roll out to finish: old replicas are pending termination',
      );
    }
    if (!stable || stable !== status.currentPodHash)
      return health('Progressing', 'Waiting for rollout to finish steps');
  }
  return health('Healthy');
}
