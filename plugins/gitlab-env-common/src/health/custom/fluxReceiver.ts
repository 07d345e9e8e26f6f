import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { isRecord, specOf } from '../../k8s/objects';

/**
 * notification.toolkit.fluxcd.io Receiver: Healthy on `Ready=True`, else
 * Degraded (a Receiver that is not ready drops webhooks); the message is
 * the Ready condition's reason.
 */
export function fluxReceiverHealth(obj: KubernetesObject): HealthAssessment {
  if (specOf(obj).suspend === true)
    return health('Suspended', 'Receiver is suspended');
  const status = obj.status;
  if (
    !isRecord(status) ||
    status.conditions === undefined ||
    status.conditions === null
  )
    return health('Progressing', 'Status unknown');
  let succeeded = 0;
  let message: string | undefined;
  for (const condition of conditionsOf(obj)) {
    if (condition.type !== 'Ready') continue;
    if (condition.status === 'True') succeeded += 1;
    message = condition.reason;
  }
  return health(succeeded === 1 ? 'Healthy' : 'Degraded', message);
}
