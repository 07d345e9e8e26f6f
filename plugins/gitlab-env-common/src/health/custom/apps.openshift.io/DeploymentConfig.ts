import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord } from '../../../k8s/objects';

/**
 * OpenShift DeploymentConfig (Argo CD's apps.openshift.io/DeploymentConfig):
 * Available and Progressing both True is rolled out, one of them is still
 * rolling out, neither is Degraded.
 */
export function deploymentConfigHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!isRecord(obj.status) || !Array.isArray(obj.status.conditions))
    return health(
      'Progressing',
      'replication controller is waiting for pods to run',
    );
  const trueCount = conditionsOf(obj).filter(
    c =>
      (c.type === 'Available' || c.type === 'Progressing') &&
      c.status === 'True',
  ).length;
  if (trueCount === 2)
    return health('Healthy', 'replication controller successfully rolled out');
  if (trueCount === 1)
    return health(
      'Progressing',
      'replication controller is waiting for pods to run',
    );
  return health('Degraded', 'Deployment config is degraded');
}
