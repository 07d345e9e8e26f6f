import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { isRecord, num, specOf, statusOf } from '../../k8s/objects';

/** Lua's `tonumber`: numbers and numeric strings, else undefined. */
function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * A non-numeric or larger observedGeneration is a legacy (pre-v0.10) hash,
 * which ArgoCD counts as observed. A Rollout referencing a workload must
 * also have observed that workload's generation.
 */
function generationObserved(
  obj: KubernetesObject,
  status: Record<string, any>,
  spec: Record<string, any>,
): boolean {
  const observed = toNumber(status.observedGeneration);
  const generation = num(obj.metadata?.generation);
  if (observed !== undefined && observed < generation) return false;
  if (!spec.workloadRef) return true;
  const annotations = obj.metadata?.annotations;
  const workloadGeneration = toNumber(
    isRecord(annotations)
      ? annotations['rollout.argoproj.io/workload-generation']
      : undefined,
  );
  return workloadGeneration === toNumber(status.workloadObservedGeneration);
}

/** ArgoCD's argoproj.io/Rollout check, blue-green and canary. */
export function rolloutHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  const spec = specOf(obj);
  if (!isRecord(obj.status) || !generationObserved(obj, status, spec)) {
    return health(
      'Progressing',
      'Waiting for rollout spec update to be observed',
    );
  }
  if (typeof status.phase === 'string' && status.phase) {
    // As in the Lua check, the phase is taken as is: the pipeline turns a
    // phase that is no health status into Unknown.
    const phase = status.phase === 'Paused' ? 'Suspended' : status.phase;
    return health(phase as HealthAssessment['status'], status.message);
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
