import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';
import { decidingCondition } from '../readyCondition';

/**
 * Argo CD Image Updater ImageUpdater (Argo CD's
 * argocd-image-updater.argoproj.io/ImageUpdater): the observed generation,
 * then Error, Reconciling and Ready, in that order.
 */
export function imageUpdaterHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  if (!isRecord(obj.status) || !Array.isArray(status.conditions))
    return health('Progressing', 'Waiting for ImageUpdater to be reconciled');
  const generation = obj.metadata?.generation;
  if (
    generation !== undefined &&
    status.observedGeneration !== undefined &&
    status.observedGeneration !== generation
  )
    return health(
      'Progressing',
      'Waiting for ImageUpdater spec update to be observed',
    );
  const conditions = conditionsOf(obj);
  const error = conditions.find(c => c.type === 'Error' && c.status === 'True');
  if (error) return health('Degraded', error.message);
  const reconciling = conditions.find(
    c => c.type === 'Reconciling' && c.status === 'True',
  );
  if (reconciling) return health('Progressing', reconciling.message);
  const ready = decidingCondition(obj, 'Ready');
  if (ready) return ready;
  return health(
    'Progressing',
    'Waiting for ImageUpdater to report a Ready condition',
  );
}
