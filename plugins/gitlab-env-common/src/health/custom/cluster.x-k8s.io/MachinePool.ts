import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/**
 * Cluster API MachinePool (Argo CD's cluster.x-k8s.io/MachinePool): the
 * phase, with every False condition listed. Argo CD calls a pool still
 * Scaling Healthy; here it is Progressing (a pool on its way is not done).
 */
export function capiMachinePoolHealth(obj: KubernetesObject): HealthAssessment {
  const phase = statusOf(obj).phase;
  let status: HealthAssessment['status'] = 'Progressing';
  let message = '';
  if (typeof phase === 'string') {
    message = `MachinePool is ${phase}`;
    if (phase === 'Running') status = 'Healthy';
    if (phase === 'Failed' || phase === 'Unknown') status = 'Degraded';
  }
  const notTrue = conditionsOf(obj)
    .filter(c => c.status === 'False')
    .map(c => `Not ${c.type}${c.reason ? ` (${c.reason})` : ''}`);
  if (notTrue.length > 0) message = `${message}: ${notTrue.join(', ')}`;
  return health(status, message);
}
