import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, specOf, statusOf, str } from '../../../k8s/objects';

/**
 * Apache Flink FlinkDeployment (Argo CD's flink.apache.org/FlinkDeployment):
 * the operator's reconciliation status and job manager deployment. Argo
 * CD calls a deployment whose job is suspended Healthy; here a suspended
 * job is Suspended (a paused workload is never shown Healthy).
 */
export function flinkDeploymentHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  const reconciliation = status.reconciliationStatus;
  const job = specOf(obj).job;
  if (isRecord(job) && job.state === 'suspended')
    return health('Suspended', 'The Flink job is suspended');
  if (isRecord(reconciliation)) {
    if (reconciliation.success === true || reconciliation.state === 'DEPLOYED')
      return health('Healthy');
    const jobManager = status.jobManagerDeploymentStatus;
    if (jobManager === 'DEPLOYED_NOT_READY' || jobManager === 'DEPLOYING')
      return health('Progressing', 'Waiting for deploying');
    if (jobManager === 'ERROR')
      return health('Degraded', str(reconciliation.error));
  }
  return health('Progressing', 'Waiting for Flink operator');
}
