import { CompoundEntityRef } from '@backstage/catalog-model';
import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { GitlabEnvHistoryApi, TimelineQuery } from './GitlabEnvHistoryApi';
import { backendRequest, entityPath, environmentPath } from './paths';

/** `?a=b`, or nothing for no parameters. */
function search(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The `GitlabEnvHistoryApi` over HTTP, through discovery and the app's
 * fetch (which adds the user's Backstage token).
 *
 * @public
 */
export class GitlabEnvHistoryClient implements GitlabEnvHistoryApi {
  private readonly apis: { discoveryApi: DiscoveryApi; fetchApi: FetchApi };

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.apis = {
      discoveryApi: options.discoveryApi,
      fetchApi: options.fetchApi,
    };
  }

  getDeployments(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options: { cursor?: string; limit?: number; signal?: AbortSignal } = {},
  ) {
    const query = new URLSearchParams();
    if (options.cursor) query.set('cursor', options.cursor);
    if (options.limit) query.set('limit', String(options.limit));
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getDeployments']>>
    >(
      this.apis,
      `${environmentPath(entity, environmentSlug)}/deployments${search(query)}`,
      { signal: options.signal },
    );
  }

  getDeploymentChanges(
    entity: CompoundEntityRef,
    environmentSlug: string,
    deploymentId: string,
    options: { signal?: AbortSignal } = {},
  ) {
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getDeploymentChanges']>>
    >(
      this.apis,
      `${environmentPath(
        entity,
        environmentSlug,
      )}/deployments/${encodeURIComponent(deploymentId)}/changes`,
      options,
    );
  }

  rollbackDeployment(
    entity: CompoundEntityRef,
    environmentSlug: string,
    deploymentId: string,
  ) {
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['rollbackDeployment']>>
    >(
      this.apis,
      `${environmentPath(
        entity,
        environmentSlug,
      )}/deployments/${encodeURIComponent(deploymentId)}/rollback`,
      { method: 'POST' },
    );
  }

  getRevisions(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options: { signal?: AbortSignal } = {},
  ) {
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getRevisions']>>
    >(
      this.apis,
      `${environmentPath(entity, environmentSlug)}/revisions`,
      options,
    );
  }

  getTimeline(
    entity: CompoundEntityRef,
    query: TimelineQuery = {},
    options: { signal?: AbortSignal } = {},
  ) {
    const params = new URLSearchParams();
    if (query.environment) params.set('environment', query.environment);
    if (query.kinds?.length) params.set('kinds', query.kinds.join(','));
    if (query.from !== undefined) params.set('from', String(query.from));
    if (query.to !== undefined) params.set('to', String(query.to));
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.limit) params.set('limit', String(query.limit));
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getTimeline']>>
    >(this.apis, `${entityPath(entity)}/timeline${search(params)}`, options);
  }

  getVersions(
    entity: CompoundEntityRef,
    options: { signal?: AbortSignal } = {},
  ) {
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getVersions']>>
    >(this.apis, `${entityPath(entity)}/versions`, options);
  }

  getSystemVersions(systemRef: string, options: { signal?: AbortSignal } = {}) {
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getSystemVersions']>>
    >(
      this.apis,
      `/versions?${new URLSearchParams({ system: systemRef })}`,
      options,
    );
  }

  getPromotion(
    entity: CompoundEntityRef,
    from: string,
    to: string,
    options: { signal?: AbortSignal } = {},
  ) {
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getPromotion']>>
    >(
      this.apis,
      `${entityPath(entity)}/promotion?${new URLSearchParams({ from, to })}`,
      options,
    );
  }

  getMergeRequestPreviews(
    entity: CompoundEntityRef,
    options: { signal?: AbortSignal } = {},
  ) {
    return backendRequest<
      Awaited<ReturnType<GitlabEnvHistoryApi['getMergeRequestPreviews']>>
    >(this.apis, `${entityPath(entity)}/merge-requests/preview`, options);
  }
}
