import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { firstConditionHealth } from './readyCondition';

/** cert-manager Certificate: Issuing wins over Ready. */
export function certificateHealth(obj: KubernetesObject): HealthAssessment {
  const issuing = conditionsOf(obj).find(
    c => c.type === 'Issuing' && c.status === 'True',
  );
  if (issuing) return health('Progressing', issuing.message);
  return firstConditionHealth(obj, 'Ready', 'Waiting for certificate');
}

/** certmanager.k8s.io (before cert-manager 0.11): no Issuing condition yet. */
export const legacyCertificateHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Waiting for certificate');

export const issuerHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Initializing issuer');

export const clusterIssuerHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Initializing ClusterIssuer');
