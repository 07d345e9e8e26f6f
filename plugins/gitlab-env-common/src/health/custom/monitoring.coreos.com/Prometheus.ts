import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';

/**
 * Prometheus operator Prometheus (Argo CD's monitoring.coreos.com/Prometheus):
 * the Available condition (the last one wins, as Argo CD's loop); some pods
 * not ready is progress, any other shortfall Degraded.
 */
export function prometheusHealth(obj: KubernetesObject): HealthAssessment {
  let result = health('Progressing', 'Waiting for initialization');
  for (const c of conditionsOf(obj)) {
    if (c.type !== 'Available') continue;
    if (c.status === 'True')
      result = health('Healthy', 'All instances are available');
    else
      result = health(
        c.reason === 'SomePodsNotReady' ? 'Progressing' : 'Degraded',
        c.message || c.reason,
      );
  }
  return result;
}
