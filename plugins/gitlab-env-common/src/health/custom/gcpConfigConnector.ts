import { HealthAssessment, KubernetesObject } from '../../types';
import { conditionsOf, health } from '../conditions';
import { isRecord, kindOf } from '../../k8s/objects';

const IN_PROGRESS = 'Update in progress';

/**
 * Google Config Connector (`*.cnrm.cloud.google.com`): a status of another
 * generation is still updating; ConfigConnector and ConfigConnectorContext
 * report `status.healthy`, the resources a condition whose reason decides
 * (UpToDate, UpdateFailed, DependencyNotFound, DependencyNotReady).
 */
export function gcpConfigConnectorHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const status = obj.status;
  if (!isRecord(status)) return health('Progressing', IN_PROGRESS);
  const observed = status.observedGeneration;
  const current =
    observed === undefined ||
    observed === null ||
    observed === obj.metadata?.generation;
  if (!current) return health('Progressing', IN_PROGRESS);
  if (
    (obj.kind === 'ConfigConnector' || obj.kind === 'ConfigConnectorContext') &&
    status.healthy !== undefined &&
    status.healthy !== null
  ) {
    return status.healthy === true
      ? health('Healthy', `${kindOf(obj)} is healthy`)
      : health('Degraded', `${kindOf(obj)} is not healthy`);
  }
  for (const condition of conditionsOf(obj)) {
    if (condition.reason === 'UpToDate' && condition.status === 'True')
      return health('Healthy', condition.message);
    if (
      condition.reason === 'UpdateFailed' ||
      condition.reason === 'DependencyNotFound'
    )
      return health('Degraded', condition.message);
    if (condition.reason === 'DependencyNotReady')
      return health('Suspended', condition.message);
  }
  return health('Progressing', IN_PROGRESS);
}
