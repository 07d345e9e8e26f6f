import {
  HealthAssessment,
  HealthStatus,
  KubernetesObject,
} from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf, str } from '../../../k8s/objects';

const PHASES: Record<string, HealthStatus> = {
  'Cluster in healthy state': 'Healthy',
  'Setting up primary': 'Progressing',
  'Creating a new replica': 'Progressing',
  'Upgrading cluster': 'Progressing',
  'Waiting for the instances to become active': 'Progressing',
  'Promoting to primary cluster': 'Progressing',
  'Switchover in progress': 'Degraded',
  'Failing over': 'Degraded',
  'Upgrading Postgres major version': 'Degraded',
  'Cluster upgrade delayed': 'Degraded',
  'Waiting for user action': 'Degraded',
  'Primary instance is being restarted in-place': 'Degraded',
  'Primary instance is being restarted without a switchover': 'Degraded',
  'Cluster cannot execute instance online upgrade due to missing architecture binary':
    'Degraded',
  'Online upgrade in progress': 'Degraded',
  'Applying configuration': 'Degraded',
  'Unable to create required cluster objects': 'Suspended',
  'Cluster cannot proceed to reconciliation due to an unknown plugin being required':
    'Suspended',
  'Cluster has incomplete or invalid image catalog': 'Suspended',
  'Cluster is unrecoverable and needs manual intervention': 'Suspended',
};

/**
 * CloudNativePG Cluster (Argo CD's postgresql.cnpg.io/Cluster): reconciliation
 * disabled by annotation, hibernation (its condition), then the phase as
 * CloudNativePG words it, with its reason.
 */
export function cnpgClusterHealth(obj: KubernetesObject): HealthAssessment {
  const annotations = obj.metadata?.annotations;
  if (
    isRecord(annotations) &&
    annotations['cnpg.io/reconciliation'] === 'disabled'
  )
    return health('Suspended', 'Cluster reconciliation is suspended');
  const status = statusOf(obj);
  if (!Array.isArray(status.conditions))
    return health(
      'Progressing',
      'Waiting for the CloudNativePG operator to report cluster status',
    );
  const hibernation = status.conditions.find(
    c => isRecord(c) && c.type === 'cnpg.io/hibernation',
  );
  if (isRecord(hibernation))
    return health(
      hibernation.status === 'True' ? 'Suspended' : 'Degraded',
      str(hibernation.message),
    );
  const phase =
    typeof status.phase === 'string' ? PHASES[status.phase] : undefined;
  return health(phase ?? 'Unknown', str(status.phaseReason));
}
