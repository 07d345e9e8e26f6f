import { KubernetesObject, ActionTarget } from '../types';
import { groupOfApiVersion } from '../k8s/resourceId';

/**
 * The version requested for a source whose reference names none: one every
 * Flux 2.x release since the kind's GA still serves.
 */
const SOURCE_VERSIONS: Record<string, string> = {
  GitRepository: 'v1',
  HelmRepository: 'v1',
  HelmChart: 'v1',
  OCIRepository: 'v1beta2',
  Bucket: 'v1beta2',
};

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The source `flux reconcile <kind> --with-source` reconciles first, read
 * from the object's spec (flux2 cmd/flux/reconcile_kustomization.go,
 * reconcile_helmrelease.go):
 * - Kustomization: `spec.sourceRef` (namespace defaults to the Kustomization's);
 * - HelmRelease with `spec.chartRef`: that OCIRepository or HelmChart;
 * - HelmRelease with `spec.chart`: the HelmChart the helm-controller makes,
 *   `<namespace>-<name>` in the chart's source namespace.
 * Undefined when the spec names none or a kind Flux cannot reconcile.
 * Values come from the cluster: callers validate them before use.
 *
 * @public
 */
export function fluxSourceOf(
  object: KubernetesObject,
): ActionTarget | undefined {
  const group = groupOfApiVersion(object.apiVersion);
  const namespace = str(object.metadata?.namespace);
  const name = str(object.metadata?.name);
  if (!namespace || !name) return undefined;
  const spec = object.spec ?? {};
  let ref: any;
  if (
    group === 'kustomize.toolkit.fluxcd.io' &&
    object.kind === 'Kustomization'
  )
    ref = spec.sourceRef;
  else if (
    group === 'helm.toolkit.fluxcd.io' &&
    object.kind === 'HelmRelease'
  ) {
    if (spec.chartRef) ref = spec.chartRef;
    else if (spec.chart?.spec?.sourceRef)
      ref = {
        kind: 'HelmChart',
        name: `${namespace}-${name}`,
        namespace: spec.chart.spec.sourceRef.namespace,
      };
  }
  const kind = str(ref?.kind);
  const refName = str(ref?.name);
  if (!kind || !refName || !(kind in SOURCE_VERSIONS)) return undefined;
  const apiVersion =
    str(ref.apiVersion) ?? `source.toolkit.fluxcd.io/${SOURCE_VERSIONS[kind]}`;
  if (groupOfApiVersion(apiVersion) !== 'source.toolkit.fluxcd.io')
    return undefined;
  return {
    apiVersion,
    kind,
    namespace: str(ref.namespace) ?? namespace,
    name: refName,
  };
}
