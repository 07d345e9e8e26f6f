import {
  HealthAssessment,
  HealthStatus,
  KubernetesObject,
} from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

/**
 * KubeVirt VirtualMachineInstance (Argo CD's kubevirt.io/VirtualMachineInstance):
 * the phase (Failed Degraded, scheduling in progress, Succeeded stopped
 * and so Suspended), then Ready and Paused.
 */
export function virtualMachineInstanceHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!isRecord(obj.status))
    return health('Progressing', 'No status available');
  const phase = statusOf(obj).phase;
  let result: HealthStatus = 'Progressing';
  let message: string | undefined = 'No status available';
  if (typeof phase === 'string') {
    message = phase;
    if (phase === 'Failed') return health('Degraded', phase);
    if (['Pending', 'Scheduling', 'Scheduled'].includes(phase))
      return health('Progressing', phase);
    if (phase === 'Succeeded') return health('Suspended', phase);
    if (phase === 'Unknown') return health('Unknown', phase);
  }
  for (const c of conditionsOf(obj)) {
    if (c.type === 'Ready') {
      result = c.status === 'True' ? 'Healthy' : 'Degraded';
      message = c.status === 'True' ? 'Running' : c.message;
    } else if (c.type === 'Paused' && c.status === 'True')
      return health('Suspended', c.message);
  }
  return health(result, message);
}
