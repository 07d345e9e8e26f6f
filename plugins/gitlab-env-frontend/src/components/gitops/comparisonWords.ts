import { DesiredStateComparison } from '@gitlab-env/backstage-plugin-gitlab-env-common';

// The words the panel and the drawer both say about a repository comparison.

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
