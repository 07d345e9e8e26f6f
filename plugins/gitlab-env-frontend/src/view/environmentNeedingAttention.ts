import {
  GitlabEnvironment,
  HealthSummary,
  compareHealth,
  groupEnvironments,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * The environment the tab opens on when the address names none: the
 * running one with the worst health (the engine's order, as the overview
 * sorts), the cards' order (production first) breaking ties. Only
 * environments with a health have a graph to show; when none has one yet,
 * the first running environment, then the first of all.
 */
export function environmentNeedingAttention(
  environments: readonly GitlabEnvironment[],
  healthOf: (environment: GitlabEnvironment) => HealthSummary | undefined,
): GitlabEnvironment | undefined {
  const ordered = groupEnvironments([...environments]).flatMap(
    group => group.environments,
  );
  const running = ordered.filter(env => env.state !== 'stopped');
  let worst: { env: GitlabEnvironment; health: HealthSummary } | undefined;
  for (const env of running) {
    const health = healthOf(env);
    if (!health) continue;
    if (!worst || compareHealth(health.status, worst.health.status) < 0)
      worst = { env, health };
  }
  return worst?.env ?? running[0] ?? ordered[0];
}
