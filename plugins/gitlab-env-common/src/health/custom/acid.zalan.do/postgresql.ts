import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/**
 * Zalando postgres-operator `postgresql` (Argo CD's acid.zalan.do/postgresql):
 * `status.PostgresClusterStatus`; Running is Healthy, Creating and
 * Updating in progress, any other state (CreateFailed, UpdateFailed,
 * SyncFailed, Invalid, ...) Degraded.
 */
export function zalandoPostgresqlHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const state = statusOf(obj).PostgresClusterStatus;
  if (typeof state !== 'string')
    return health('Progressing', 'Waiting for postgres cluster status...');
  if (state === 'Running') return health('Healthy', state);
  if (state === 'Creating' || state === 'Updating')
    return health('Progressing', state);
  return health('Degraded', state);
}
