import { DesiredObjectDiff, KubernetesObject, ResourceKey } from '../types';
import { groupOf, isRecord, kindOf, str } from '../k8s/objects';
import { resourceId } from '../k8s/resourceId';
import { diffDesiredLive } from './fieldDiff';

/**
 * What a `kustomization.yaml` lets the backend render without kustomize:
 * the plain manifest files its `resources` lists. Everything that changes
 * manifests (generators, patches, components, replacements, Helm charts,
 * remote or directory bases) is named in `notRendered` instead, so the UI
 * can say what it could not compare.
 *
 * @public
 */
export interface KustomizationPlan {
  files: string[];
  notRendered: string[];
}

const TRANSFORMING_FIELDS = [
  'configMapGenerator',
  'secretGenerator',
  'generators',
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
  'components',
  'replacements',
  'helmCharts',
  'transformers',
  'images',
  'namePrefix',
  'nameSuffix',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'replicas',
];

const MANIFEST_FILE = /\.ya?ml$/;

/** Joins a kustomization's directory and a relative resource path; undefined when it climbs out. */
function joinPath(directory: string, relative: string): string | undefined {
  const parts = directory.split('/').filter(p => p && p !== '.');
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** @public */
export function planKustomization(
  kustomization: unknown,
  directory: string,
): KustomizationPlan {
  const plan: KustomizationPlan = { files: [], notRendered: [] };
  if (!isRecord(kustomization)) {
    plan.notRendered.push('kustomization.yaml is not a mapping');
    return plan;
  }
  for (const field of TRANSFORMING_FIELDS) {
    if (kustomization[field] !== undefined)
      plan.notRendered.push(`${field} (needs kustomize build)`);
  }
  const resources = Array.isArray(kustomization.resources)
    ? kustomization.resources
    : [];
  for (const resource of resources) {
    if (typeof resource !== 'string') continue;
    const path = /^[a-z]+:\/\//i.test(resource)
      ? undefined
      : joinPath(directory, resource);
    if (path && MANIFEST_FILE.test(path)) plan.files.push(path);
    else
      plan.notRendered.push(
        `resource ${resource} (a directory, remote base or non-YAML file)`,
      );
  }
  return plan;
}

/**
 * The key a manifest applies to: its own namespace, or the Kustomization's
 * `targetNamespace` for namespaced objects (Flux sets it on every object
 * that is not cluster-scoped; `clusterScoped` says which kinds are).
 */
function keyOfManifest(
  manifest: KubernetesObject,
  targetNamespace: string | undefined,
  clusterScoped: (group: string, kind: string) => boolean,
): ResourceKey | undefined {
  const name = str(manifest.metadata?.name);
  if (!name) return undefined;
  const group = groupOf(manifest);
  const kind = kindOf(manifest);
  const namespace = clusterScoped(group, kind)
    ? ''
    : targetNamespace ?? str(manifest.metadata?.namespace) ?? '';
  return { group, kind, namespace, name };
}

/**
 * The repository's manifests against the live objects, field by field
 * (fields the API server adds are not drift; see diffDesiredLive).
 *
 * @public
 */
export function diffManifests(
  manifests: ReadonlyArray<{ file: string; object: KubernetesObject }>,
  live: ReadonlyMap<string, KubernetesObject>,
  options: {
    targetNamespace?: string;
    clusterScoped: (group: string, kind: string) => boolean;
  },
): DesiredObjectDiff[] {
  return manifests.flatMap(({ file, object }): DesiredObjectDiff[] => {
    const key = keyOfManifest(
      object,
      options.targetNamespace,
      options.clusterScoped,
    );
    if (!key) return [];
    const id = resourceId(key);
    const current = live.get(id);
    if (!current) return [{ id, file, state: 'missing' as const, changes: [] }];
    const { status: _status, ...desired } = object as Record<string, unknown>;
    const metadata = isRecord(desired.metadata)
      ? { ...desired.metadata, namespace: key.namespace || undefined }
      : desired.metadata;
    if (isRecord(metadata) && metadata.namespace === undefined)
      delete metadata.namespace;
    const changes = diffDesiredLive({ ...desired, metadata }, current);
    return [
      {
        id,
        file,
        state: changes.length > 0 ? ('differs' as const) : ('same' as const),
        changes,
      },
    ];
  });
}
