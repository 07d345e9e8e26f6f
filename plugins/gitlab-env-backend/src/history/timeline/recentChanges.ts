import {
  TimelineEntry,
  TimelineEntryKind,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { TimelineStore } from './TimelineStore';

/** What the timeline records, and when: said by the API and the README. */
export const TIMELINE_RECORDING =
  'While someone views an environment (the entity tab or the overview live), its shared watches record every rollout, Flux revision and reconciliation, health change and Warning Event as it happens. While nobody does, what is recorded comes from the reads the overview and the environment list make (each read records the state it found: a health change is timed when it was read, a Warning Event only if it is still within Kubernetes’ one-hour retention), and from GitLab’s deployments as the history and the environment list read them. Actions taken through the portal are recorded when they are taken.';

/**
 * An entity's (or one of its environments') recent changes, newest first,
 * from the plugin's database alone: no GitLab or cluster request. Meant
 * for a read-only action of Backstage's actions registry ("what changed in
 * production lately?") as much as for the timeline route.
 */
export async function recentEnvironmentChanges(
  store: TimelineStore,
  options: {
    entityRef: string;
    /** One environment's slug; all of the entity's when left out. */
    environment?: string;
    /** How far back, in hours (default 24). */
    sinceHours?: number;
    kinds?: readonly TimelineEntryKind[];
    /** At most this many (default 50, at most 500). */
    limit?: number;
    now?: number;
  },
): Promise<TimelineEntry[]> {
  const now = options.now ?? Date.now();
  const { entries } = await store.page({
    entityRef: options.entityRef,
    environmentSlug: options.environment,
    kinds: options.kinds,
    from: now - (options.sinceHours ?? 24) * 3_600_000,
    limit: Math.min(Math.max(options.limit ?? 50, 1), 500),
  });
  return entries;
}
