/**
 * Kinds most people do not need to see to understand an environment: they
 * are hidden from the graph and the list until the user asks for them.
 */
export const DEFAULT_HIDDEN_KINDS: ReadonlySet<string> = new Set([
  'Event',
  'EndpointSlice',
  'Endpoints',
  'ConfigMap',
  'Secret',
  'ControllerRevision',
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'Lease',
]);

/** Pods of one owner collapse into a group node when there are more than this. */
export const POD_GROUP_THRESHOLD = 5;

/**
 * Other siblings of one kind (a Kustomization's Deployments, roots of one
 * kind) collapse into a group node, subtrees and all, past this many: a
 * large environment opens as a few dozen boxes, not thousands.
 */
export const SIBLING_GROUP_THRESHOLD = 10;

/** How many more siblings a click on their group shows. */
export const GROUP_PAGE = 50;

// ArgoCD's and kubectl's short names, shown above a node's name.
const SHORT_NAMES: Record<string, string> = {
  Deployment: 'deploy',
  ReplicaSet: 'rs',
  Pod: 'pod',
  Service: 'svc',
  Ingress: 'ing',
  StatefulSet: 'sts',
  DaemonSet: 'ds',
  Job: 'job',
  CronJob: 'cj',
  ConfigMap: 'cm',
  Secret: 'secret',
  PersistentVolumeClaim: 'pvc',
  HorizontalPodAutoscaler: 'hpa',
  EndpointSlice: 'endpointslice',
  Endpoints: 'ep',
  ServiceAccount: 'sa',
  Kustomization: 'ks',
  HelmRelease: 'hr',
  GitRepository: 'gitrepo',
  OCIRepository: 'ocirepo',
  HelmRepository: 'helmrepo',
  PodDisruptionBudget: 'pdb',
  NetworkPolicy: 'netpol',
  Event: 'ev',
};

export function kindShortName(kind: string): string {
  return SHORT_NAMES[kind] ?? kind.toLocaleLowerCase('en-US');
}

/** The resource name kubectl accepts for a kind, qualified by its group when needed. */
export function kubectlResourceName(kind: string, group: string): string {
  const plural = kind.toLocaleLowerCase('en-US');
  const builtIn = [
    '',
    'apps',
    'batch',
    'networking.k8s.io',
    'autoscaling',
    'policy',
    'discovery.k8s.io',
    'rbac.authorization.k8s.io',
    'coordination.k8s.io',
    'events.k8s.io',
  ];
  return builtIn.includes(group) ? plural : `${plural}.${group}`;
}
