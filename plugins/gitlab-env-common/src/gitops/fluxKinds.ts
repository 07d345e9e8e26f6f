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
