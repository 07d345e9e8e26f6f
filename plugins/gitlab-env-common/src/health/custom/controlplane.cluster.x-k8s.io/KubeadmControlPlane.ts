import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { isRecord, statusOf } from '../../../k8s/objects';

/** The first condition of a type in a raw list, whatever its status's shape. */
function conditionOf(
  list: unknown,
  type: string,
): Record<string, unknown> | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.find(c => isRecord(c) && c.type === type);
}

/**
 * Cluster API KubeadmControlPlane (Argo CD's
 * controlplane.cluster.x-k8s.io/KubeadmControlPlane): etcd unhealthy is
 * Degraded; machines not ready or not up to date, components unhealthy or
 * a rollout under way are progress; then every replica updated and ready.
 */
export function kubeadmControlPlaneHealth(
  obj: KubernetesObject,
): HealthAssessment {
  if (!isRecord(obj.status))
    return health('Progressing', 'Waiting for KubeadmControlPlane status');
  const status = statusOf(obj);
  const v1beta2 = isRecord(status.v1beta2)
    ? status.v1beta2.conditions
    : undefined;
  const legacy = status.conditions;
  const etcd = conditionOf(legacy, 'EtcdClusterHealthy');
  if (etcd && etcd.status !== 'True')
    return health('Degraded', 'Etcd cluster is unhealthy');
  for (const [list, type, message] of [
    [v1beta2, 'MachinesReady', 'Machines not ready'],
    [v1beta2, 'MachinesUpToDate', 'Updating machines'],
    [
      legacy,
      'ControlPlaneComponentsHealthy',
      'Control plane components unhealthy',
    ],
  ] as const) {
    const c = conditionOf(list, type);
    if (c && c.status !== 'True') return health('Progressing', message);
  }
  if (conditionOf(v1beta2, 'RollingOut')?.status === 'True')
    return health('Progressing', 'Rolling out');
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  const replicas = count(status.replicas);
  const updated = count(status.updatedReplicas);
  const ready = count(status.readyReplicas);
  if (replicas > 0 && updated < replicas)
    return health(
      'Progressing',
      `Updating: ${updated}/${replicas} updated, ${ready} ready`,
    );
  if (replicas !== ready)
    return health('Progressing', `${ready}/${replicas} ready`);
  return health('Healthy', 'Control plane is healthy');
}
