import { HealthAssessment, KubernetesObject } from '../../types';
import { Condition, conditionsOf, health } from '../conditions';
import { text } from '../../k8s/objects';
import { firstConditionHealth } from './readyCondition';

/**
 * cert-manager sets `Ready=False` with reason `Issuing` (message `Issuing
 * certificate as ...`) before it adds the Issuing condition: still issuing,
 * not failed (a race ArgoCD's tests cover).
 */
function issuingBeforeCondition(condition: Condition): boolean {
  return (
    condition.reason === 'Issuing' ||
    text(condition.message).startsWith('Issuing certificate as Secret')
  );
}

/** cert-manager Certificate: Issuing wins over Ready. */
export function certificateHealth(obj: KubernetesObject): HealthAssessment {
  const conditions = conditionsOf(obj);
  const issuing = conditions.find(
    c => c.type === 'Issuing' && c.status === 'True',
  );
  if (issuing) return health('Progressing', issuing.message);
  const ready = conditions.find(c => c.type === 'Ready');
  if (ready?.status === 'False' && issuingBeforeCondition(ready))
    return health('Progressing', ready.message);
  return firstConditionHealth(obj, 'Ready', 'Waiting for certificate');
}

/** certmanager.k8s.io (before cert-manager 0.11): no Issuing condition yet. */
export const legacyCertificateHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Waiting for certificate');

export const issuerHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Initializing issuer');

export const clusterIssuerHealth = (obj: KubernetesObject) =>
  firstConditionHealth(obj, 'Ready', 'Initializing ClusterIssuer');
