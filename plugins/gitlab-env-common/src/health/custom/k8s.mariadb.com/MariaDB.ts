import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health } from '../../conditions';
import { isRecord } from '../../../k8s/objects';

/**
 * mariadb-operator MariaDB (Argo CD's k8s.mariadb.com/MariaDB): the first
 * False condition (Degraded if its reason is Failed, else still on its
 * way); none False is Healthy, with the last condition's message.
 */
export function mariaDbHealth(obj: KubernetesObject): HealthAssessment {
  if (!isRecord(obj.status) || !Array.isArray(obj.status.conditions))
    return health('Progressing', 'No status info available');
  let message: string | undefined;
  for (const c of conditionsOf(obj)) {
    message = c.message;
    if (c.status === 'False')
      return health(
        c.reason === 'Failed' ? 'Degraded' : 'Progressing',
        message,
      );
  }
  return health('Healthy', message);
}
