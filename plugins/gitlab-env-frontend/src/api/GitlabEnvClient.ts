import { CompoundEntityRef } from '@backstage/catalog-model';
import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import {
  ActionsAllowedRequest,
  ActionsAllowedResponse,
  EnvironmentActionRequest,
  EnvironmentActionResponse,
  LOG_TAIL_CAPPED_HEADER,
  PodLogsQuery,
  CiAccessMatrixResponse,
  DeleteNamespaceResponse,
  DiagnosticsResponse,
  EntityEnvironmentsResponse,
  StaleNamespacesResponse,
  StaleNamespacesSoFar,
  StaleNamespacesStreamLine,
  addStaleNamespacesLine,
  NO_STALE_NAMESPACES_YET,
  EnvironmentDesiredStateResponse,
  EnvironmentObjectResponse,
  EnvironmentResourcesResponse,
  EnvironmentUsageResponse,
  OverviewStreamLine,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvApi, PodLogsHandlers } from './GitlabEnvApi';
import { GitlabEnvApiError } from './GitlabEnvApiError';
import { backendRequest, entityPath, environmentPath } from './paths';

/**
 * The `GitlabEnvApi` over HTTP: resolves the backend through discovery and
 * calls it with the app's fetch (which adds the user's Backstage token).
 *
 * @public
 */
export class GitlabEnvClient implements GitlabEnvApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }

  getEnvironments(
    entity: CompoundEntityRef,
    options?: { signal?: AbortSignal },
  ): Promise<EntityEnvironmentsResponse> {
    // Stopped environments too: their cards start collapsed, and a stopped
    // review app whose namespace was left behind is worth seeing.
    return this.send(
      `${entityPath(entity)}/environments?includeStopped=true`,
      options?.signal,
    );
  }

  getEnvironmentResources(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentResourcesResponse> {
    return this.send(
      `${environmentPath(entity, environmentSlug)}/resources`,
      options?.signal,
    );
  }

  getDesiredState(
    entity: CompoundEntityRef,
    environmentSlug: string,
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentDesiredStateResponse> {
    return this.send(
      `${environmentPath(entity, environmentSlug)}/desired`,
      options?.signal,
    );
  }

  getEnvironmentObject(
    entity: CompoundEntityRef,
    environmentSlug: string,
    id: string,
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentObjectResponse> {
    return this.send(
      `${environmentPath(
        entity,
        environmentSlug,
      )}/object?id=${encodeURIComponent(id)}`,
      options?.signal,
    );
  }

  getEnvironmentUsage(
    entity: CompoundEntityRef,
    environmentSlug: string,
    target: { pod?: string; workload?: string } = {},
    options?: { signal?: AbortSignal },
  ): Promise<EnvironmentUsageResponse> {
    const query = new URLSearchParams();
    if (target.pod) query.set('pod', target.pod);
    if (target.workload) query.set('workload', target.workload);
    const search = query.toString();
    return this.send(
      `${environmentPath(entity, environmentSlug)}/usage${
        search ? `?${search}` : ''
      }`,
      options?.signal,
    );
  }

  async streamOverview(
    onLine: (line: OverviewStreamLine) => void,
    options?: { signal?: AbortSignal },
  ): Promise<void> {
    const baseUrl = await this.discoveryApi.getBaseUrl('gitlab-env');
    const response = await this.fetchApi.fetch(`${baseUrl}/overview`, {
      signal: options?.signal,
      headers: { accept: 'application/x-ndjson' },
    });
    if (!response.ok) {
      throw await GitlabEnvApiError.fromResponse(response);
    }
    for await (const line of ndjsonLines(response)) {
      onLine(JSON.parse(line) as OverviewStreamLine);
    }
  }

  getDiagnostics(options?: {
    signal?: AbortSignal;
  }): Promise<DiagnosticsResponse> {
    return this.send('/diagnostics', options?.signal);
  }

  getCiAccess(
    entity: CompoundEntityRef,
    options?: { branch?: string; signal?: AbortSignal },
  ): Promise<CiAccessMatrixResponse> {
    const query = options?.branch
      ? `?branch=${encodeURIComponent(options.branch)}`
      : '';
    return this.send(
      `${entityPath(entity)}/ci-access${query}`,
      options?.signal,
    );
  }

  getStaleNamespaces(
    entity: CompoundEntityRef,
    options?: { signal?: AbortSignal },
  ): Promise<StaleNamespacesResponse> {
    return this.send(
      `${entityPath(entity)}/ci-access/stale-namespaces`,
      options?.signal,
    );
  }

  async getAllStaleNamespaces(options?: {
    signal?: AbortSignal;
    onProgress?: (sofar: StaleNamespacesSoFar) => void;
  }): Promise<StaleNamespacesResponse> {
    const baseUrl = await this.discoveryApi.getBaseUrl('gitlab-env');
    const response = await this.fetchApi.fetch(
      `${baseUrl}/ci-access/stale-namespaces`,
      {
        signal: options?.signal,
        headers: { accept: 'application/x-ndjson' },
      },
    );
    if (!response.ok) {
      throw await GitlabEnvApiError.fromResponse(response);
    }
    // A backend that does not stream answers the whole list at once.
    if (response.headers.get('content-type')?.includes('application/json'))
      return (await response.json()) as StaleNamespacesResponse;
    let sofar = NO_STALE_NAMESPACES_YET;
    for await (const line of ndjsonLines(response)) {
      sofar = addStaleNamespacesLine(
        sofar,
        JSON.parse(line) as StaleNamespacesStreamLine,
      );
      options?.onProgress?.(sofar);
    }
    return { namespaces: sofar.namespaces, errors: sofar.errors };
  }

  deleteStaleNamespace(
    entity: CompoundEntityRef,
    agentId: string,
    namespace: string,
  ): Promise<DeleteNamespaceResponse> {
    return this.send(
      `${entityPath(entity)}/ci-access/agents/${encodeURIComponent(
        agentId,
      )}/namespaces/${encodeURIComponent(namespace)}`,
      undefined,
      'DELETE',
    );
  }

  runAction(
    entity: CompoundEntityRef,
    environmentSlug: string,
    request: EnvironmentActionRequest,
  ): Promise<EnvironmentActionResponse> {
    return this.send(
      `${environmentPath(entity, environmentSlug)}/actions`,
      undefined,
      'POST',
      request,
    );
  }

  getAllowedActions(
    entity: CompoundEntityRef,
    environmentSlug: string,
    request: ActionsAllowedRequest,
    options?: { signal?: AbortSignal },
  ): Promise<ActionsAllowedResponse> {
    return this.send(
      `${environmentPath(entity, environmentSlug)}/actions/allowed`,
      options?.signal,
      'POST',
      request,
    );
  }

  async streamPodLogs(
    entity: CompoundEntityRef,
    environmentSlug: string,
    query: PodLogsQuery,
    handlers: PodLogsHandlers,
    options?: { signal?: AbortSignal },
  ): Promise<void> {
    const baseUrl = await this.discoveryApi.getBaseUrl('gitlab-env');
    const response = await this.fetchApi.fetch(
      `${baseUrl}${environmentPath(entity, environmentSlug)}/logs?${logsSearch(
        query,
      )}`,
      { signal: options?.signal, headers: { accept: 'text/plain' } },
    );
    if (!response.ok) {
      throw await GitlabEnvApiError.fromResponse(response);
    }
    const capped = Number(response.headers.get(LOG_TAIL_CAPPED_HEADER));
    handlers.onOpen?.({
      tailCap: Number.isInteger(capped) && capped > 0 ? capped : undefined,
    });
    if (!response.body) {
      handlers.onText(await response.text());
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      const text = decoder.decode(value, { stream: !done });
      if (text) handlers.onText(text);
      if (done) return;
    }
  }

  private send<T>(
    path: string,
    signal?: AbortSignal,
    method: 'GET' | 'DELETE' | 'POST' = 'GET',
    body?: unknown,
  ): Promise<T> {
    const { discoveryApi, fetchApi } = this;
    return backendRequest({ discoveryApi, fetchApi }, path, {
      signal,
      method,
      body,
    });
  }
}

function logsSearch(query: PodLogsQuery): string {
  const params = new URLSearchParams({ pod: query.pod });
  if (query.namespace) params.set('namespace', query.namespace);
  if (query.container) params.set('container', query.container);
  if (query.tailLines !== undefined)
    params.set('tailLines', String(query.tailLines));
  if (query.sinceSeconds !== undefined)
    params.set('sinceSeconds', String(query.sinceSeconds));
  for (const flag of ['previous', 'timestamps', 'follow'] as const) {
    if (query[flag]) params.set(flag, 'true');
  }
  return params.toString();
}

/** The non-empty lines of a streamed body, each as soon as it is complete. */
async function* ndjsonLines(response: Response): AsyncGenerator<string> {
  if (!response.body) {
    yield* (await response.text()).split('\n').filter(Boolean);
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    buffered += decoder.decode(value, { stream: !done });
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    yield* lines.filter(Boolean);
    if (done) break;
  }
  if (buffered.trim()) yield buffered;
}
