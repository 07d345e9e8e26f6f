import { KubernetesObject, ResourceKey } from '../types';
import { groupOf, isRecord, kindOf, specOf, statusOf, str } from './objects';

// Flux's objects as they name each other: which kinds apply and which are
// sources, their references (sourceRef, chartRef, dependsOn), the ids of
// their inventories' entries and GitLab's path to an environment's Flux
// resource. What the graph's relations and the GitOps view read.

/** The API group of Flux's source-controller. */
export const FLUX_SOURCE_GROUP = 'source.toolkit.fluxcd.io';
/** The API group of the Flux Operator (ResourceSet, FluxInstance). */
export const FLUX_OPERATOR_GROUP = 'fluxcd.controlplane.io';

/**
 * The objects that apply others (Flux's "appliers" category,
 * https://fluxcd.io/flux/cheatsheets/crd-resource-categories/), by group.
 */
const APPLIERS: Readonly<Record<string, readonly string[]>> = {
  'kustomize.toolkit.fluxcd.io': ['Kustomization'],
  'helm.toolkit.fluxcd.io': ['HelmRelease'],
  [FLUX_OPERATOR_GROUP]: ['ResourceSet'],
};

/** Source kinds (Flux's "sources" category), all of source-controller's group. */
const SOURCES: readonly string[] = [
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'HelmChart',
  'Bucket',
  'ExternalArtifact',
];

/** @public */
export function isFluxApplier(group: string, kind: string): boolean {
  return APPLIERS[group]?.includes(kind) ?? false;
}

/** @public */
export function isFluxSource(group: string, kind: string): boolean {
  return group === FLUX_SOURCE_GROUP && SOURCES.includes(kind);
}

/** An applier or a source: an object whose sync state Flux reports. @public */
export function isFluxObject(group: string, kind: string): boolean {
  return isFluxApplier(group, kind) || isFluxSource(group, kind);
}

/** The key of an object, with '' for what it lacks. */
export function keyOf(object: KubernetesObject): ResourceKey {
  return {
    group: groupOf(object),
    kind: kindOf(object),
    namespace: str(object.metadata?.namespace) ?? '',
    name: str(object.metadata?.name) ?? '',
  };
}

/**
 * A Flux cross-object reference (`sourceRef`, `chartRef`, `dependsOn[]`):
 * `name`, optional `namespace` (defaults to the referrer's) and `kind`
 * (defaults to `defaultKind`). Undefined when the reference is malformed.
 */
export function fluxReference(
  reference: unknown,
  group: string,
  defaultKind: string,
  referrerNamespace: string,
): ResourceKey | undefined {
  if (!isRecord(reference)) return undefined;
  const name = str(reference.name);
  if (!name) return undefined;
  const apiVersion = str(reference.apiVersion);
  return {
    group: apiVersion?.includes('/') ? apiVersion.split('/')[0] : group,
    kind: str(reference.kind) || defaultKind,
    namespace: str(reference.namespace) || referrerNamespace,
    name,
  };
}

/**
 * The objects of a Flux applier's `spec.dependsOn`: same group and kind
 * unless the entry names them (ResourceSet), namespace defaulting to the
 * dependent's (https://fluxcd.io/flux/components/kustomize/kustomizations/#dependencies).
 *
 * @public
 */
export function fluxDependencyOf(
  entry: unknown,
  dependent: KubernetesObject,
): ResourceKey | undefined {
  const { group, kind, namespace } = keyOf(dependent);
  return fluxReference(entry, group, kind, namespace);
}

/** Every dependency of a Flux applier, malformed entries skipped. @public */
export function fluxDependenciesOf(object: KubernetesObject): ResourceKey[] {
  const dependsOn = isRecord(object.spec) ? object.spec.dependsOn : undefined;
  if (!Array.isArray(dependsOn)) return [];
  return dependsOn
    .map(entry => fluxDependencyOf(entry, object))
    .filter((key): key is ResourceKey => key !== undefined);
}

/**
 * Labels by which Flux's appliers mark what they applied: kustomize-controller
 * (`kustomize.toolkit.fluxcd.io/name|namespace`), helm-controller
 * (`helm.toolkit.fluxcd.io/name|namespace`) and the Flux Operator's
 * ResourceSet (`resourceset.fluxcd.controlplane.io/name|namespace`).
 */
const OWNER_LABELS: ReadonlyArray<[string, string]> = [
  ['kustomize.toolkit.fluxcd.io', 'Kustomization'],
  ['helm.toolkit.fluxcd.io', 'HelmRelease'],
  ['resourceset.fluxcd.controlplane.io', 'ResourceSet'],
];

/** The Flux applier an object's labels name, even when that applier was not read. @public */
export function fluxOwnerByLabels(
  object: KubernetesObject,
): { kind: string; namespace: string; name: string } | undefined {
  const labels = object.metadata?.labels;
  if (!isRecord(labels)) return undefined;
  for (const [prefix, kind] of OWNER_LABELS) {
    const name = str(labels[`${prefix}/name`]);
    if (name)
      return {
        kind,
        name,
        namespace: str(labels[`${prefix}/namespace`]) ?? '',
      };
  }
  return undefined;
}

/**
 * The source an applier or a HelmChart reads its artifact from, per the Flux
 * APIs: a Kustomization's `spec.sourceRef`
 * (https://fluxcd.io/flux/components/kustomize/kustomizations/#source-reference);
 * a HelmRelease's `spec.chartRef`, else the HelmChart helm-controller made
 * for `spec.chart` (named in `status.helmChart`, else
 * `<release namespace>-<release name>` in the chart source's namespace,
 * https://fluxcd.io/flux/components/helm/helmreleases/#chart-template); a
 * HelmChart's `spec.sourceRef` (same namespace).
 *
 * @public
 */
export function fluxSourceKeyOf(
  object: KubernetesObject,
): ResourceKey | undefined {
  const { group, kind, namespace, name } = keyOf(object);
  const spec = specOf(object);
  if (kind === 'Kustomization' && group === 'kustomize.toolkit.fluxcd.io')
    return fluxReference(spec.sourceRef, FLUX_SOURCE_GROUP, '', namespace);
  if (kind === 'HelmChart' && group === FLUX_SOURCE_GROUP) {
    const ref = fluxReference(spec.sourceRef, FLUX_SOURCE_GROUP, '', namespace);
    return ref && { ...ref, namespace };
  }
  if (kind !== 'HelmRelease' || group !== 'helm.toolkit.fluxcd.io')
    return undefined;
  if (spec.chartRef)
    return fluxReference(spec.chartRef, FLUX_SOURCE_GROUP, '', namespace);
  const made = str(statusOf(object).helmChart)?.split('/');
  if (made?.length === 2 && made[0] && made[1])
    return {
      group: FLUX_SOURCE_GROUP,
      kind: 'HelmChart',
      namespace: made[0],
      name: made[1],
    };
  const template = isRecord(spec.chart) ? spec.chart.spec : undefined;
  if (!isRecord(template)) return undefined;
  const chartSource = isRecord(template.sourceRef) ? template.sourceRef : {};
  return {
    group: FLUX_SOURCE_GROUP,
    kind: 'HelmChart',
    namespace: str(chartSource.namespace) || namespace,
    name: `${namespace}-${name}`,
  };
}

/** RBAC kinds whose names cli-utils transcodes, `:` written as `__`. */
const COLON_TRANSCODED_GROUP = 'rbac.authorization.k8s.io';

/**
 * Parses a Flux inventory entry id, `<namespace>_<name>_<group>_<kind>`.
 * Namespace is empty for cluster-scoped objects and group for the core
 * group, and RBAC names may hold `__` for `:`, so the id is read from both
 * ends: kind last, group before it, namespace first, the name in between.
 *
 * @public
 */
export function parseFluxInventoryId(id: string): ResourceKey | undefined {
  if (typeof id !== 'string') return undefined;
  const kindAt = id.lastIndexOf('_');
  if (kindAt <= 0) return undefined;
  const groupAt = id.lastIndexOf('_', kindAt - 1);
  const namespaceEnd = id.indexOf('_');
  if (groupAt < 0 || namespaceEnd >= groupAt) return undefined;
  const kind = id.slice(kindAt + 1);
  const group = id.slice(groupAt + 1, kindAt);
  const namespace = id.slice(0, namespaceEnd);
  let name = id.slice(namespaceEnd + 1, groupAt);
  if (!kind || !name) return undefined;
  if (group === COLON_TRANSCODED_GROUP) name = name.replace(/__/g, ':');
  return { group, kind, namespace, name };
}

/**
 * The objects a Flux applier's `status.inventory` names, as keys; entries
 * whose id does not parse are left out.
 *
 * @public
 */
export function fluxInventoryKeys(flux: KubernetesObject): ResourceKey[] {
  const entries: unknown = flux.status?.inventory?.entries;
  if (!Array.isArray(entries)) return [];
  return entries
    .map(entry =>
      parseFluxInventoryId((entry as { id?: unknown } | null)?.id as string),
    )
    .filter((key): key is ResourceKey => key !== undefined);
}

/** @public */
export interface FluxResourcePath {
  group: string;
  version: string;
  namespace: string;
  plural: string;
  name: string;
  kind: 'Kustomization' | 'HelmRelease' | string;
}

const KINDS: Record<string, string> = {
  kustomizations: 'Kustomization',
  helmreleases: 'HelmRelease',
};

/**
 * Parses GitLab's environment `fluxResourcePath`,
 * `<group>/<version>/namespaces/<namespace>/<plural>/<name>`.
 *
 * @public
 */
export function parseFluxResourcePath(
  path: string,
): FluxResourcePath | undefined {
  if (typeof path !== 'string') return undefined;
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length !== 6 || parts[2] !== 'namespaces' || parts.some(p => !p))
    return undefined;
  const [group, version, , namespace, plural, name] = parts;
  return {
    group,
    version,
    namespace,
    plural,
    name,
    kind: KINDS[plural] ?? plural,
  };
}
