import { KubeObject } from '../scenario/types';

/** One resource type the simulated API server serves, as discovery describes it. */
export interface ApiResource {
  group: string;
  /** Served versions, preferred first. */
  versions: string[];
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  /** e.g. `status`, `scale`, `log`. */
  subresources: ApiSubresource[];
  /** A custom resource's `additionalPrinterColumns` (server-side table output). */
  printerColumns?: PrinterColumn[];
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface ApiSubresource {
  name: string;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

const ALL_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];
const STATUS = { name: 'status', kind: '', verbs: ['get', 'patch', 'update'] };
const SCALE = {
  name: 'scale',
  kind: 'Scale',
  group: 'autoscaling',
  version: 'v1',
  verbs: ['get', 'patch', 'update'],
};

function builtin(
  group: string,
  version: string,
  plural: string,
  kind: string,
  namespaced: boolean,
  extra: Partial<ApiResource> = {},
): ApiResource {
  return {
    group,
    versions: [version],
    plural,
    singular: kind.toLowerCase(),
    kind,
    namespaced,
    verbs: ALL_VERBS,
    subresources: [],
    ...extra,
  };
}

/** The built-in resources of a Kubernetes 1.31 API server that dashboards read. */
export const BUILTIN_RESOURCES: ApiResource[] = [
  builtin('', 'v1', 'namespaces', 'Namespace', false, {
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [STATUS],
  }),
  builtin('', 'v1', 'nodes', 'Node', false, {
    shortNames: ['no'],
    subresources: [STATUS],
  }),
  builtin('', 'v1', 'pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      STATUS,
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
    ],
  }),
  builtin('', 'v1', 'services', 'Service', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [
      STATUS,
      {
        name: 'proxy',
        kind: 'ServiceProxyOptions',
        verbs: ['create', 'delete', 'get', 'patch', 'update'],
      },
    ],
  }),
  builtin('', 'v1', 'endpoints', 'Endpoints', true, {
    shortNames: ['ep'],
    singular: 'endpoints',
  }),
  builtin('', 'v1', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  builtin('', 'v1', 'secrets', 'Secret', true),
  builtin('', 'v1', 'serviceaccounts', 'ServiceAccount', true, {
    shortNames: ['sa'],
  }),
  builtin('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, {
    shortNames: ['pvc'],
    subresources: [STATUS],
  }),
  builtin('', 'v1', 'persistentvolumes', 'PersistentVolume', false, {
    shortNames: ['pv'],
    subresources: [STATUS],
  }),
  builtin('', 'v1', 'events', 'Event', true, { shortNames: ['ev'] }),
  builtin('apps', 'v1', 'deployments', 'Deployment', true, {
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [STATUS, SCALE],
  }),
  builtin('apps', 'v1', 'replicasets', 'ReplicaSet', true, {
    shortNames: ['rs'],
    categories: ['all'],
    subresources: [STATUS, SCALE],
  }),
  builtin('apps', 'v1', 'statefulsets', 'StatefulSet', true, {
    shortNames: ['sts'],
    categories: ['all'],
    subresources: [STATUS, SCALE],
  }),
  builtin('apps', 'v1', 'daemonsets', 'DaemonSet', true, {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  builtin('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true),
  builtin('batch', 'v1', 'jobs', 'Job', true, {
    categories: ['all'],
    subresources: [STATUS],
  }),
  builtin('batch', 'v1', 'cronjobs', 'CronJob', true, {
    shortNames: ['cj'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  builtin(
    'autoscaling',
    'v2',
    'horizontalpodautoscalers',
    'HorizontalPodAutoscaler',
    true,
    {
      shortNames: ['hpa'],
      categories: ['all'],
      subresources: [STATUS],
    },
  ),
  builtin('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, {
    shortNames: ['ing'],
    subresources: [STATUS],
  }),
  builtin('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, {
    shortNames: ['netpol'],
  }),
  builtin('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true),
  builtin('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, {
    shortNames: ['pdb'],
    subresources: [STATUS],
  }),
  builtin('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
  builtin(
    'rbac.authorization.k8s.io',
    'v1',
    'rolebindings',
    'RoleBinding',
    true,
  ),
  builtin(
    'rbac.authorization.k8s.io',
    'v1',
    'clusterroles',
    'ClusterRole',
    false,
  ),
  builtin(
    'rbac.authorization.k8s.io',
    'v1',
    'clusterrolebindings',
    'ClusterRoleBinding',
    false,
  ),
  builtin('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, {
    shortNames: ['sc'],
  }),
  // Create-only: `kubectl auth can-i` and dashboards ask it what they may do.
  builtin(
    'authorization.k8s.io',
    'v1',
    'selfsubjectaccessreviews',
    'SelfSubjectAccessReview',
    false,
    { verbs: ['create'] },
  ),
  builtin(
    'apiextensions.k8s.io',
    'v1',
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
    { shortNames: ['crd', 'crds'], subresources: [STATUS] },
  ),
];

/** The resource a CustomResourceDefinition object declares. */
export function resourceFromCrd(crd: KubeObject): ApiResource | undefined {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const served = (spec.versions ?? []).filter((v: any) => v.served !== false);
  if (!spec.group || !names.plural || !names.kind || served.length === 0) {
    return undefined;
  }
  // Discovery prefers the storage version, then the others in listed order.
  const ordered = [
    ...served.filter((v: any) => v.storage),
    ...served.filter((v: any) => !v.storage),
  ];
  const subresources: ApiSubresource[] = [];
  const declared = ordered[0].subresources ?? {};
  if (declared.status) {
    subresources.push(STATUS);
  }
  if (declared.scale) {
    subresources.push({ ...SCALE });
  }
  return {
    group: spec.group,
    versions: ordered.map((v: any) => v.name),
    plural: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
    kind: names.kind,
    namespaced: spec.scope !== 'Cluster',
    verbs: ALL_VERBS,
    shortNames: names.shortNames,
    categories: names.categories,
    subresources,
    // apiextensions defaulting: without columns a custom resource prints its Age.
    printerColumns: ordered[0].additionalPrinterColumns?.length
      ? ordered[0].additionalPrinterColumns
      : [
          {
            name: 'Age',
            type: 'date',
            jsonPath: '.metadata.creationTimestamp',
          },
        ],
  };
}

/** Splits `apps/v1` into group and version (`v1` is the core group). */
export function parseApiVersion(apiVersion: string): {
  group: string;
  version: string;
} {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : {
        group: apiVersion.slice(0, slash),
        version: apiVersion.slice(slash + 1),
      };
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Built-in resources plus those declared by CRDs in one cluster. */
export class ResourceRegistry {
  private readonly byKindKey = new Map<string, ApiResource>();
  private readonly byPluralKey = new Map<string, ApiResource>();
  readonly resources: ApiResource[];

  constructor(crds: KubeObject[]) {
    const custom = crds
      .map(resourceFromCrd)
      .filter((r): r is ApiResource => r !== undefined);
    this.resources = [...BUILTIN_RESOURCES, ...custom];
    for (const resource of this.resources) {
      this.byKindKey.set(`${resource.group}/${resource.kind}`, resource);
      this.byPluralKey.set(`${resource.group}/${resource.plural}`, resource);
    }
  }

  forKind(group: string, kind: string): ApiResource | undefined {
    return this.byKindKey.get(`${group}/${kind}`);
  }

  forObject(object: KubeObject): ApiResource | undefined {
    return this.forKind(parseApiVersion(object.apiVersion).group, object.kind);
  }

  /** The resource served at `/apis/<group>/<version>/<plural>`, if that version is served. */
  forPath(
    group: string,
    version: string,
    plural: string,
  ): ApiResource | undefined {
    const resource = this.byPluralKey.get(`${group}/${plural}`);
    return resource?.versions.includes(version) ? resource : undefined;
  }

  /** API groups with their served versions, in registration order. */
  groups(): Array<{ name: string; versions: string[] }> {
    return groupsOf(this.resources);
  }
}

/** What discovery describes: resources and their groups (a registry, or a registry plus aggregated APIs). */
export type ResourceCatalog = Pick<ResourceRegistry, 'resources' | 'groups'>;

/** API groups of some resources with their served versions, in order of appearance. */
export function groupsOf(
  resources: ApiResource[],
): Array<{ name: string; versions: string[] }> {
  const groups = new Map<string, Set<string>>();
  for (const resource of resources) {
    const versions = groups.get(resource.group) ?? new Set<string>();
    resource.versions.forEach(v => versions.add(v));
    groups.set(resource.group, versions);
  }
  return [...groups].map(([name, versions]) => ({
    name,
    versions: [...versions],
  }));
}

/** A catalog of the registry's resources followed by others (APIs aggregated into the API server). */
export function catalogWith(
  registry: ResourceRegistry,
  extra: ApiResource[],
): ResourceCatalog {
  if (extra.length === 0) return registry;
  const resources = [...registry.resources, ...extra];
  return { resources, groups: () => groupsOf(resources) };
}
