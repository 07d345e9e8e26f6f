import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';

/**
 * kyverno.io Policy: Healthy only on Kyverno's exact
 * ready condition; anything else is still Progressing, never Degraded.
 */
export function kyvernoPolicyHealth(obj: KubernetesObject): HealthAssessment {
  const ready = conditionsOf(obj).some(
    c =>
      c.type === 'Ready' &&
      c.status === 'True' &&
      c.reason === 'Succeeded' &&
      c.message === 'Ready',
  );
  return ready
    ? health('Healthy', 'Policy is ready')
    : health('Progressing', 'Waiting for Policy to be ready');
}

/** kyverno.io ClusterPolicy: its first `Ready` condition decides. */
export function kyvernoClusterPolicyHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const ready = conditionsOf(obj).find(c => c.type === 'Ready');
  if (ready)
    return health(
      ready.status === 'True' ? 'Healthy' : 'Degraded',
      ready.message,
    );
  return health('Progressing', 'Waiting for ClusterPolicy to become ready');
}
