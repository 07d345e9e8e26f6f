import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

/**
 * KubeVirt CDI DataVolume (Argo CD's cdi.kubevirt.io/DataVolume): the
 * phase (Succeeded Healthy, Paused Suspended, Failed or Unknown Degraded,
 * any other still importing), unless the Running condition reports an
 * error, which is Degraded with its message.
 */
export function dataVolumeHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status))
    return health('Progressing', 'No status available');
  const phase = statusOf(obj).phase;
  let status: HealthAssessment['status'] = 'Progressing';
  let message = 'No status available';
  if (typeof phase === 'string') {
    message = phase;
    if (phase === 'Succeeded') return health('Healthy', phase);
    if (phase === 'Paused') return health('Suspended', phase);
    if (phase === 'Failed' || phase === 'Unknown') status = 'Degraded';
  }
  const error = conditionsOf(obj).find(
    c => c.type === 'Running' && c.status === 'False' && c.reason === 'Error',
  );
  if (error) return health('Degraded', error.message);
  return health(status, message);
}
