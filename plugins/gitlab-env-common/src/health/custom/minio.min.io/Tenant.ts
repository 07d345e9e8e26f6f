import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

const DEGRADED_STATES = new Set([
  'Statefulset not controlled by operator',
  'Another MinIO Tenant already exists in the namespace',
  'Different versions across MinIO Pools',
]);

/**
 * MinIO Tenant (Argo CD's minio.min.io/Tenant): its `currentState` text;
 * Healthy only once Initialized; a state Argo CD does not know is Unknown.
 */
export function minioTenantHealth(obj: KubernetesObject): HealthAssessment {
  const state = statusOf(obj).currentState;
  if (typeof state !== 'string')
    return health('Missing', 'No status info available');
  if (state === 'Initialized') return health('Healthy', state);
  if (/^(Provisioning|Waiting|Updating)/.test(state))
    return health('Progressing', state);
  if (DEGRADED_STATES.has(state)) return health('Degraded', state);
  return health('Unknown', state);
}
