import {
  HEALTH_STATUSES,
  HealthCounts,
  HealthStatus,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** The worse of the statuses, in ArgoCD's order; undefined when none carry health. */
export function worstHealth(
  statuses: Iterable<HealthStatus | undefined>,
): HealthStatus | undefined {
  let worst = -1;
  for (const status of statuses) {
    if (status) worst = Math.max(worst, HEALTH_STATUSES.indexOf(status));
  }
  return worst < 0 ? undefined : HEALTH_STATUSES[worst];
}

export function emptyHealthCounts(): HealthCounts {
  const counts = { none: 0 } as HealthCounts;
  for (const status of HEALTH_STATUSES) counts[status] = 0;
  return counts;
}
