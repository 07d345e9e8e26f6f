import { HealthAssessment, KubernetesObject } from '../../../types';
import { findCondition, health } from '../../conditions';
import { isRecord, statusOf, str } from '../../../k8s/objects';

const WAITING = 'Waiting for status';

/** A Valid=False whose every error is a missing include (a child in its own right). */
function onlyMissingIncludes(valid: Record<string, unknown>): boolean {
  const errors = valid.errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every(e => isRecord(e) && e.reason === 'IncludeNotFound')
  );
}

/**
 * Contour HTTPProxy (Argo CD's projectcontour.io/HTTPProxy): the Valid
 * condition of the current generation, else `currentStatus`. A parent
 * whose only errors are includes not found answers Healthy, as Argo CD
 * does: inclusions cannot be health checked from the parent.
 */
export function httpProxyHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status)) return health('Progressing', WAITING);
  const status = statusOf(obj);
  const valid = findCondition(obj, 'Valid');
  if (valid) {
    const observed = valid.observedGeneration;
    if (typeof observed === 'number' && observed !== obj.metadata?.generation)
      return health('Progressing', WAITING);
    if (valid.status === 'True')
      return health('Healthy', valid.message || str(status.description));
    if (valid.status === 'False') {
      if (onlyMissingIncludes(valid as unknown as Record<string, unknown>))
        return health(
          'Healthy',
          'HTTPProxy inclusions cannot be health checked',
        );
      return health('Degraded', valid.message || str(status.description));
    }
  }
  const description = str(status.description);
  if (status.currentStatus === 'valid') return health('Healthy', description);
  if (status.currentStatus === 'invalid')
    return health('Degraded', description);
  return health('Progressing', description || WAITING);
}
