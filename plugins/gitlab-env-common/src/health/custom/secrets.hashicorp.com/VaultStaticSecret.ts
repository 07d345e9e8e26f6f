import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/**
 * Vault Secrets Operator VaultStaticSecret (Argo CD's
 * secrets.hashicorp.com/VaultStaticSecret): synced once the operator
 * records the secret's MAC; without it, Degraded as Argo CD says.
 */
export function vaultStaticSecretHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const mac = statusOf(obj).secretMAC;
  if (mac !== undefined && mac !== null)
    return health('Healthy', 'Secret was found');
  return health(
    'Degraded',
    'Either the service account cannot authenticate with Vault or requested secret not found - view events for more information',
  );
}
