import { DesiredStateComparison } from '@gitlab-env/backstage-plugin-gitlab-env-common';

// The words the panel and the drawer both say about a repository comparison.

/**
 * Why there is no comparison when the backend answered none: it compares
 * only from the Flux object the GitLab environment names (its
 * `flux_resource_path`, the dashboard's Flux resource, GitLab 16.4+).
 */
export const NO_FLUX_RESOURCE_WORDS =
  "No desired vs live from the repository: the GitLab environment names no Flux resource (its flux_resource_path), so the backend does not know which Flux object's source to read. Set the environment's Flux resource in GitLab.";

/** Why there is no comparison, when the backend said so. */
export function unavailableWords(
  comparison: DesiredStateComparison,
): string | undefined {
  return comparison.unavailable
    ? `No desired vs live from the repository: ${comparison.unavailable}`
    : undefined;
}

/** What the backend could not render, when anything. */
export function notRenderedWords(
  comparison: DesiredStateComparison,
): string | undefined {
  return comparison.notRendered.length > 0
    ? `Not compared (needs kustomize or Helm): ${comparison.notRendered.join(
        '; ',
      )}`
    : undefined;
}

/** How many of the repository's manifests differ from the cluster. */
export function differingCount(comparison: DesiredStateComparison): number {
  return comparison.objects.filter(o => o.state !== 'same').length;
}
