import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/**
 * grafana-operator Grafana (Argo CD's grafana.integreatly.org/Grafana): the
 * stage the operator reached and how it went; Healthy only once the
 * `complete` stage succeeded.
 */
export function grafanaHealth(obj: KubernetesObject): HealthAssessment {
  const { stage, stageStatus } = statusOf(obj);
  if (stageStatus === undefined || stageStatus === null)
    return health('Progressing', 'Waiting for Grafana status info');
  if (stageStatus === 'failed')
    return health('Degraded', `Failed at stage ${String(stage)}`);
  if (stage === 'complete' && stageStatus === 'success')
    return health('Healthy');
  return health('Progressing', typeof stage === 'string' ? stage : undefined);
}
