import { KubernetesObject } from '../types';
import { isRecord, statusOf, str } from '../k8s/objects';

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
