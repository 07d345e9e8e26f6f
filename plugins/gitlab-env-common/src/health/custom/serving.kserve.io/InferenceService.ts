import { HealthAssessment, KubernetesObject } from '../../../types';
import { conditionsOf, health, isRecord } from '../../conditions';

const COUNTED = new Set([
  'IngressReady',
  'PredictorConfigurationReady',
  'PredictorReady',
  'PredictorRouteReady',
]);

/**
 * KServe InferenceService (Argo CD's serving.kserve.io/InferenceService):
 * as Knative's Service, three of its readiness conditions True and none
 * False or Unknown is Healthy; the message lists every condition that is
 * not True.
 */
export function inferenceServiceHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!isRecord(obj.status) || !Array.isArray(obj.status.conditions))
    return health('Progressing', 'Waiting for status update.');
  let ready = 0;
  let failed = 0;
  let unknown = 0;
  let message = '';
  for (const c of conditionsOf(obj)) {
    if (c.status === 'True' && COUNTED.has(c.type)) ready++;
    else if (c.status === 'False' || c.status === 'Unknown') {
      let line = `${c.type} is ${c.status}`;
      if (c.reason) line += `, since ${c.reason}.`;
      if (c.message) line += ` ${c.message}`;
      message += `${line}\n`;
      if (c.status === 'False') failed++;
      else unknown++;
    }
  }
  if (ready === 3 && failed === 0 && unknown === 0)
    return health('Healthy', 'Inference Service is healthy.');
  return health(failed > 0 ? 'Degraded' : 'Progressing', message);
}
