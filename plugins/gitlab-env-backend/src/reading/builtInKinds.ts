import { basePathOf } from '../validation';
import type { ListableKind } from './discovery';

/**
 * The namespaced kinds every Kubernetes API server the agent supports
 * serves, at the version its discovery prefers (each GA since 1.25 at the
 * latest: CronJob and PodDisruptionBudget 1.21, EndpointSlice 1.21,
 * HorizontalPodAutoscaler v2 1.23, CSIStorageCapacity 1.24; the
 * Kubernetes API reference, kubernetes.io/docs/reference/kubernetes-api).
 * Their paths are fixed, so a read may list them while discovery is still
 * under way (LivePlanner.listEarly); discovery still decides what the
 * answer holds: a kind it does not confirm at that version is dropped.
 */
const KINDS: Array<
  [group: string, version: string, plural: string, kind: string]
> = [
  ['', 'v1', 'pods', 'Pod'],
  ['', 'v1', 'services', 'Service'],
  ['', 'v1', 'endpoints', 'Endpoints'],
  ['', 'v1', 'configmaps', 'ConfigMap'],
  ['', 'v1', 'secrets', 'Secret'],
  ['', 'v1', 'serviceaccounts', 'ServiceAccount'],
  ['', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim'],
  ['', 'v1', 'events', 'Event'],
  ['', 'v1', 'podtemplates', 'PodTemplate'],
  ['', 'v1', 'replicationcontrollers', 'ReplicationController'],
  ['', 'v1', 'limitranges', 'LimitRange'],
  ['', 'v1', 'resourcequotas', 'ResourceQuota'],
  ['apps', 'v1', 'deployments', 'Deployment'],
  ['apps', 'v1', 'replicasets', 'ReplicaSet'],
  ['apps', 'v1', 'statefulsets', 'StatefulSet'],
  ['apps', 'v1', 'daemonsets', 'DaemonSet'],
  ['apps', 'v1', 'controllerrevisions', 'ControllerRevision'],
  ['batch', 'v1', 'jobs', 'Job'],
  ['batch', 'v1', 'cronjobs', 'CronJob'],
  ['autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'],
  ['networking.k8s.io', 'v1', 'ingresses', 'Ingress'],
  ['networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy'],
  ['discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice'],
  ['policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'],
  ['rbac.authorization.k8s.io', 'v1', 'roles', 'Role'],
  ['rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding'],
  ['coordination.k8s.io', 'v1', 'leases', 'Lease'],
  ['storage.k8s.io', 'v1', 'csistoragecapacities', 'CSIStorageCapacity'],
];

/** The built-in namespaced kinds, as discovery would describe them. */
export const BUILT_IN_KINDS: readonly ListableKind[] = KINDS.map(
  ([group, version, plural, kind]) => ({
    group,
    version,
    plural,
    kind,
    label: group ? `${group}/${kind}` : kind,
    basePath: basePathOf(group, version),
  }),
);

/** Whether discovery lists the same kind, at the same version. */
export function sameKind(a: ListableKind, b: ListableKind): boolean {
  return (
    a.group === b.group && a.version === b.version && a.plural === b.plural
  );
}
