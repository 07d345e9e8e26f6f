import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { isRecord } from '../../k8s/objects';

const SERVICE_READY_TYPES = new Set([
  'ConfigurationsReady',
  'RoutesReady',
  'Ready',
]);

/**
 * The Knative way, shared with KServe: Healthy when three of the kind's
 * ready condition types are True and nothing is False or Unknown; the
 * message lists every condition that is not True as
 * `<type> is <status>, since <reason>. <message>`.
 */
export function knativeStyleHealth(
  obj: KubernetesObject,
  readyTypes: ReadonlySet<string>,
  healthyMessage: string,
): HealthAssessment {
  const status = obj.status;
  if (
    !isRecord(status) ||
    status.conditions === undefined ||
    status.conditions === null
  )
    return health('Progressing', 'Waiting for status update.');
  let ready = 0;
  let failed = 0;
  let unknown = 0;
  let message = '';
  for (const condition of conditionsOf(obj)) {
    if (condition.status === 'True' && readyTypes.has(condition.type)) {
      ready += 1;
    } else if (condition.status === 'False' || condition.status === 'Unknown') {
      let line = `${condition.type} is ${condition.status}`;
      if (condition.reason) line += `, since ${condition.reason}.`;
      if (condition.message) line += ` ${condition.message}`;
      message += `${line}\n`;
      if (condition.status === 'False') failed += 1;
      else unknown += 1;
    }
  }
  if (ready === 3 && failed === 0 && unknown === 0)
    return health('Healthy', healthyMessage);
  return health(failed > 0 ? 'Degraded' : 'Progressing', message);
}

/** serving.knative.dev Service. */
export const knativeServiceHealth = (obj: KubernetesObject) =>
  knativeStyleHealth(obj, SERVICE_READY_TYPES, 'Knative Service is healthy.');
