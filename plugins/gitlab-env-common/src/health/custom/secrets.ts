import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { firstConditionHealth } from './readyCondition';

/** external-secrets.io ExternalSecret, SecretStore, ClusterSecretStore, PushSecret. */
export const externalSecretsHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', `Waiting for ${obj.kind ?? ''}`);

/** external-secrets.io ClusterExternalSecret: only the last condition counts. */
export function clusterExternalSecretHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const last = conditionsOf(obj).at(-1);
  if (last?.type === 'Ready' && last.status === 'True')
    return health('Healthy', last.message);
  if (
    (last?.type === 'PartiallyReady' || last?.type === 'NotReady') &&
    last.status === 'True'
  ) {
    return health('Degraded', last.message);
  }
  return health('Progressing', 'Waiting for ClusterExternalSecret');
}

/** bitnami.com SealedSecret. */
export const sealedSecretHealth = (obj: KubernetesObject) =>
  firstConditionHealth(
    obj,
    'Synced',
    'Waiting for Sealed Secret to be decrypted',
  );
