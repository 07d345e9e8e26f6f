import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/**
 * Altinity ClickHouseInstallation (Argo CD's
 * clickhouse.altinity.com/ClickHouseInstallation): `status.status`.
 */
export function clickHouseInstallationHealth(
  obj: KubernetesObject,
): HealthAssessment {
  const state = statusOf(obj).status;
  if (typeof state !== 'string')
    return health('Progressing', 'ClickHouse status not yet available');
  if (state === 'Completed')
    return health('Healthy', 'ClickHouse installation completed successfully');
  if (state === 'InProgress')
    return health('Progressing', 'ClickHouse installation in progress');
  return health('Degraded', `ClickHouse status: ${state}`);
}
