import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf, str } from '../../../k8s/objects';

/**
 * cert-manager ACME Order and Challenge (Argo CD's acme.cert-manager.io
 * scripts): `status.state`; valid is Healthy, invalid, expired or errored
 * Degraded (with the reason), anything else still on its way.
 */
function acmeHealth(
  obj: KubernetesObject,
  noun: 'Order' | 'Challenge',
): HealthAssessment {
  const { state, reason } = statusOf(obj);
  if (typeof state !== 'string' || state === '')
    return health('Progressing', `Waiting for ${noun.toLowerCase()}`);
  if (state === 'valid') return health('Healthy', `${noun} is valid`);
  if (state === 'invalid' || state === 'expired' || state === 'errored')
    return health('Degraded', str(reason) ?? `${noun} is ${state}`);
  return health(
    'Progressing',
    (noun === 'Challenge' && str(reason)) || `${noun} is ${state}`,
  );
}

export const acmeOrderHealth = (obj: KubernetesObject) =>
  acmeHealth(obj, 'Order');
export const acmeChallengeHealth = (obj: KubernetesObject) =>
  acmeHealth(obj, 'Challenge');
