import { ResourcePermission } from '@backstage/plugin-permission-common';
import {
  gitlabEnvFluxReconcilePermission,
  gitlabEnvFluxSuspendPermission,
  gitlabEnvLogsReadPermission,
  gitlabEnvPodDeletePermission,
  gitlabEnvWorkloadRestartPermission,
  gitlabEnvWorkloadRollbackPermission,
  gitlabEnvWorkloadScalePermission,
} from '../permissions';
import { EnvironmentCapability } from '../types';

const PERMISSIONS: Record<
  EnvironmentCapability,
  ResourcePermission<'catalog-entity'>
> = {
  'pod.logs': gitlabEnvLogsReadPermission,
  'pod.delete': gitlabEnvPodDeletePermission,
  'workload.restart': gitlabEnvWorkloadRestartPermission,
  'workload.scale': gitlabEnvWorkloadScalePermission,
  'flux.reconcile': gitlabEnvFluxReconcilePermission,
  'flux.suspend': gitlabEnvFluxSuspendPermission,
  'flux.resume': gitlabEnvFluxSuspendPermission,
  'workload.rollback': gitlabEnvWorkloadRollbackPermission,
};

/**
 * The permission each capability needs (suspend and resume share one), a
 * resource permission on the catalog entity that owns the environment.
 *
 * @public
 */
export function permissionForCapability(
  capability: EnvironmentCapability,
): ResourcePermission<'catalog-entity'> {
  return PERMISSIONS[capability];
}
