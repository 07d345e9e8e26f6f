import { KubernetesObject, ResourceKey } from '../types';
import { isRecord, specOf, statusOf, str } from '../health/conditions';
import { FLUX_SOURCE_GROUP, fluxReference, keyOf } from './fluxKinds';

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

/** The revision of a source's stored artifact (`status.artifact.revision`). @public */
export function sourceRevisionOf(source: KubernetesObject): string | undefined {
  const artifact = statusOf(source).artifact;
  return isRecord(artifact) ? str(artifact.revision) : undefined;
}

/**
 * What an applier last applied: a Kustomization's
 * `status.lastAppliedRevision`, a HelmRelease's newest `status.history`
 * snapshot's chart version (helm-controller v2), or its
 * `status.lastAppliedRevision` in older API versions.
 *
 * @public
 */
export function appliedRevisionOf(
  object: KubernetesObject,
): string | undefined {
  const status = statusOf(object);
  const history = status.history;
  if (object.kind === 'HelmRelease' && Array.isArray(history)) {
    const newest = history[0];
    if (isRecord(newest) && str(newest.chartVersion))
      return str(newest.chartVersion);
  }
  return str(status.lastAppliedRevision);
}

/** A revision without its digest: `6.7.0@sha256:…` and `6.7.0` name the same chart version. */
function versionPart(revision: string): string {
  const at = revision.indexOf('@');
  return at < 0 ? revision : revision.slice(0, at);
}

/**
 * Whether the source holds a revision other than the one applied. Helm
 * chart versions are compared without the OCI digest helm-controller does
 * not record in its history; Git and OCI revisions of Kustomizations as
 * written (`<ref>@sha1:<commit>`).
 *
 * @public
 */
export function revisionsDiffer(
  applier: KubernetesObject,
  sourceRevision: string | undefined,
  appliedRevision: string | undefined,
): boolean {
  if (!sourceRevision || !appliedRevision) return false;
  if (applier.kind === 'HelmRelease')
    return versionPart(sourceRevision) !== versionPart(appliedRevision);
  return sourceRevision !== appliedRevision;
}
