import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { kindOf, specOf, statusOf, text } from '../../k8s/objects';
import { firstConditionHealth } from './readyCondition';

/**
 * external-secrets.io ExternalSecret: with `refreshPolicy: OnChange`, a Ready
 * condition older than the last refresh speaks of a previous spec.
 */
export function externalSecretHealth(obj: KubernetesObject): HealthAssessment {
  const onChange = specOf(obj).refreshPolicy === 'OnChange';
  const refreshTime = text(statusOf(obj).refreshTime);
  return firstConditionHealth(
    obj,
    'Ready',
    'Waiting for ExternalSecret',
    c => !onChange || text(c.lastTransitionTime) >= refreshTime,
  );
}

/** external-secrets.io SecretStore, ClusterSecretStore, PushSecret. */
export const externalSecretsHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', `Waiting for ${kindOf(obj)}`);

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
