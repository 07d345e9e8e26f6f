import { fluxOwnerByLabels } from '../k8s/flux';
import { gitlabMarkerText } from '../gitops/gitlabMarkers';
import { KubernetesObject, WorkloadManager } from '../types';

const FLUX_API_VERSIONS: Record<string, string> = {
  Kustomization: 'kustomize.toolkit.fluxcd.io/v1',
  HelmRelease: 'helm.toolkit.fluxcd.io/v2',
};

/**
 * Who puts a workload's template back after a manual rollback: the Flux
 * applier whose labels it carries (kustomize-controller re-applies at
 * every interval, correcting drift; helm-controller when drift detection
 * is on), or a GitLab pipeline that deploys the environment (its next
 * deployment applies its own template). Undefined when nothing says so.
 *
 * @public
 */
export function workloadManager(
  workload: KubernetesObject,
  objects: readonly KubernetesObject[],
  options: { gitlabDeploys: boolean },
): WorkloadManager | undefined {
  const what = `${workload.kind} ${workload.metadata?.name}`;
  const owner = fluxOwnerByLabels(workload);
  if (owner && FLUX_API_VERSIONS[owner.kind]) {
    const found = objects.find(
      o =>
        o.kind === owner.kind &&
        o.metadata?.name === owner.name &&
        o.metadata?.namespace === owner.namespace,
    );
    const suspended = found?.spec?.suspend === true;
    const interval =
      typeof found?.spec?.interval === 'string'
        ? found.spec.interval
        : undefined;
    const applier = `${owner.kind} ${owner.namespace}/${owner.name}`;
    return {
      by: 'flux',
      object: {
        apiVersion: String(found?.apiVersion ?? FLUX_API_VERSIONS[owner.kind]),
        kind: owner.kind,
        namespace: owner.namespace,
        name: owner.name,
      },
      suspended,
      warning: suspended
        ? `Flux's ${applier} applies ${what} and is suspended: the rollback stays until it is resumed, then its next reconcile puts the repository's template back.`
        : `Flux's ${applier} applies ${what}: its next reconcile${
            interval ? ` (every ${interval})` : ''
          } puts the repository's template back and reverts this rollback. Suspend it first to keep the rollback, and revert the change in the repository.`,
    };
  }
  if (options.gitlabDeploys || gitlabMarkerText(workload))
    return {
      by: 'gitlab',
      warning: `A GitLab pipeline deploys ${what}: its next deployment to this environment applies its own template and reverts this rollback. To make it last, roll back in GitLab (re-run an earlier deploy job) or revert the change in the repository.`,
    };
  return undefined;
}
