import { Entity } from '@backstage/catalog-model';
import { DesiredStateComparison } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { LivePlanner } from '../planning/LivePlanner';
import type { CallOptions, GitlabEnvironmentsService } from '../facade';

/**
 * Desired vs live for the live tab: the repository's manifests (see
 * compareWithRepository) against the objects the environment's live state
 * holds now, the same the tab shows. Joins the live state the tab already
 * follows (or starts one, released after its grace period); repository files
 * are read at a commit and cached, so asking again costs the diff alone.
 * Undefined for an environment without a Flux object.
 */
export async function liveDesiredState(
  service: Pick<GitlabEnvironmentsService, 'locateLive' | 'desiredStateOfLive'>,
  planner: Pick<LivePlanner, 'follow'>,
  entity: Entity,
  slug: string,
  options: CallOptions = {},
): Promise<DesiredStateComparison | undefined> {
  const target = await service.locateLive(entity, slug, options);
  if (!target.environment.fluxResourcePath) return undefined;
  const { environment, release } = await planner.follow(target);
  try {
    return await service.desiredStateOfLive(
      target,
      environment.snapshot().resources,
    );
  } finally {
    release();
  }
}
