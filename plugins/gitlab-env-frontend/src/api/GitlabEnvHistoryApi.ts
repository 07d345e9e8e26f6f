import { createApiRef } from '@backstage/core-plugin-api';
import { CompoundEntityRef } from '@backstage/catalog-model';
import {
  DeploymentChanges,
  DeploymentHistoryResponse,
  GitlabEnvError,
  GitlabRollbackResponse,
  MergeRequestPreviewResponse,
  PromotionDiffResponse,
  TimelineEntryKind,
  TimelineResponse,
  VersionsResponse,
  WorkloadRevisionsResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** What a timeline page asks for. @public */
export interface TimelineQuery {
  /** One environment's slug; all of the entity's when left out. */
  environment?: string;
  kinds?: TimelineEntryKind[];
  /** Milliseconds since the epoch: entries at or after. */
  from?: number;
  /** Entries before. */
  to?: number;
  cursor?: string;
  limit?: number;
}

/**
 * What changed, and when: deployment history, rollbacks, the persisted
 * timeline, versions across environments and merge request previews, from
 * the gitlab-env backend.
 *
 * @public
 */
export interface GitlabEnvHistoryApi {
  getDeployments(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options?: { cursor?: string; limit?: number; signal?: AbortSignal },
  ): Promise<DeploymentHistoryResponse>;
  /** What a deployment brought since the previous successful one. */
  getDeploymentChanges(
    entity: CompoundEntityRef,
    environmentSlug: string,
    deploymentId: string,
    options?: { signal?: AbortSignal },
  ): Promise<DeploymentChanges & { errors?: GitlabEnvError[] }>;
  /** GitLab's rollback: re-runs the deploy job of an earlier successful deployment. */
  rollbackDeployment(
    entity: CompoundEntityRef,
    environmentSlug: string,
    deploymentId: string,
  ): Promise<GitlabRollbackResponse>;
  getRevisions(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options?: { signal?: AbortSignal },
  ): Promise<WorkloadRevisionsResponse>;
  getTimeline(
    entity: CompoundEntityRef,
    query?: TimelineQuery,
    options?: { signal?: AbortSignal },
  ): Promise<TimelineResponse>;
  getVersions(
    entity: CompoundEntityRef,
    options?: { signal?: AbortSignal },
  ): Promise<VersionsResponse>;
  /** Versions of every entity of a system (`system:default/shop`). */
  getSystemVersions(
    systemRef: string,
    options?: { signal?: AbortSignal },
  ): Promise<VersionsResponse>;
  getPromotion(
    entity: CompoundEntityRef,
    from: string,
    to: string,
    options?: { signal?: AbortSignal },
  ): Promise<PromotionDiffResponse>;
  getMergeRequestPreviews(
    entity: CompoundEntityRef,
    options?: { signal?: AbortSignal },
  ): Promise<MergeRequestPreviewResponse>;
}

/** @public */
export const gitlabEnvHistoryApiRef = createApiRef<GitlabEnvHistoryApi>({
  id: 'plugin.gitlab-env.history',
});
