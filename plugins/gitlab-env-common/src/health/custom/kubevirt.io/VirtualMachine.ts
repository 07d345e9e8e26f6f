import {
  HealthAssessment,
  HealthStatus,
  KubernetesObject,
} from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, statusOf, str } from '../../../k8s/objects';

/**
 * KubeVirt VirtualMachine (Argo CD's kubevirt.io/VirtualMachine): paused,
 * Ready (Running), created but not ready (Starting) or not created
 * (Stopped, Suspended); the message is KubeVirt's printable status.
 */
export function virtualMachineHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status))
    return health('Progressing', 'No status available');
  const status = statusOf(obj);
  let result: HealthStatus = 'Progressing';
  let message = 'No status available';
  for (const c of conditionsOf(obj)) {
    if (c.type === 'Paused' && c.status === 'True')
      return health('Suspended', 'Paused');
    if (c.type !== 'Ready') continue;
    if (c.status === 'True') {
      result = 'Healthy';
      message = 'Running';
    } else if (status.created) message = 'Starting';
    else {
      result = 'Suspended';
      message = 'Stopped';
    }
  }
  return health(result, str(status.printableStatus) ?? message);
}
