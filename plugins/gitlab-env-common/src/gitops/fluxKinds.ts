import { KubernetesObject, ResourceKey } from '../types';
import { groupOf, isRecord, kindOf, str } from '../health/conditions';

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
