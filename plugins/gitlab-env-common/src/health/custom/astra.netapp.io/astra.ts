import { HealthAssessment, KubernetesObject } from '../../../types';
import { findCondition, health } from '../../conditions';
import { kindOf, statusOf } from '../../../k8s/objects';

const NO_STATUS = 'No status available';

/**
 * NetApp Astra (Trident protect) Application (Argo CD's
 * astra.netapp.io/Application): its Ready condition and protection state.
 */
export function astraApplicationHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const ready = findCondition(obj, 'Ready');
  if (ready?.status === 'True')
    return health(
      'Healthy',
      `Astra Application Ready, protectionState: ${String(
        statusOf(obj).protectionState,
      )}`,
    );
  if (ready?.status === 'False')
    return health(
      'Degraded',
      `Astra Application Degraded, message: ${ready.message ?? ''}`,
    );
  return health('Progressing', NO_STATUS);
}

/**
 * Astra data operations that run to an end (Argo CD's astra.netapp.io
 * Backup and ResourceBackup): Completed, Running, or the failed state.
 */
export function astraOperationHealth(obj: KubernetesObject): HealthAssessment {
  const state = statusOf(obj).state;
  if (typeof state !== 'string') return health('Progressing', NO_STATUS);
  if (state === 'Completed')
    return health('Healthy', `${kindOf(obj)} Completed`);
  if (state === 'Running')
    return health('Progressing', `${kindOf(obj)} Running`);
  return health('Degraded', state);
}

/** Astra AppVault (Argo CD's astra.netapp.io/AppVault): available or failed. */
export function astraAppVaultHealth(obj: KubernetesObject): HealthAssessment {
  const state = statusOf(obj).state;
  if (state === 'available' || state === 'Available')
    return health('Healthy', `${kindOf(obj)} Available`);
  if (state === 'failed' || state === 'Failed')
    return health('Degraded', `${kindOf(obj)} Failed`);
  return health('Progressing', NO_STATUS);
}
