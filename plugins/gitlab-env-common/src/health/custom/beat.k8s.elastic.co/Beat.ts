import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

const PROGRESSING = 'Elastic Beat phase is progressing';

/** Elastic Beat (Argo CD's beat.k8s.elastic.co/Beat): its green / yellow / red health. */
export function beatHealth(obj: KubernetesObject): HealthAssessment {
  const status = statusOf(obj);
  if (
    isRecord(obj.status) &&
    (status.health !== undefined || status.expectedNodes !== undefined)
  ) {
    if (status.health === 'red')
      return health('Degraded', 'Elastic Beat status is Red');
    if (status.health === 'green')
      return health('Healthy', 'Elastic Beat status is Green');
    if (status.health === 'yellow') {
      if (
        status.availableNodes !== undefined &&
        status.expectedNodes !== undefined
      )
        return health(
          'Progressing',
          `Elastic Beat status is deploying, there is ${status.availableNodes} instance(s) on ${status.expectedNodes} expected`,
        );
      return health('Progressing', PROGRESSING);
    }
    if (status.health === undefined) return health('Progressing', PROGRESSING);
  }
  return health(
    'Unknown',
    'Elastic Beat status is unknown. Ensure your ArgoCD is current and then check for/file a bug report: https://github.com/argoproj/argo-cd/issues',
  );
}
