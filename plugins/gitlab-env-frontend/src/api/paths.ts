import { CompoundEntityRef } from '@backstage/catalog-model';
import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { GitlabEnvApiError } from './GitlabEnvApiError';

// Lower-cased like the catalog's own entity URLs; lookups are case-insensitive.
export function entityPath({
  namespace,
  kind,
  name,
}: CompoundEntityRef): string {
  return `/entity/${[
    namespace.toLocaleLowerCase('en-US'),
    kind.toLocaleLowerCase('en-US'),
    name,
  ]
    .map(encodeURIComponent)
    .join('/')}`;
}

export function environmentPath(
  entity: CompoundEntityRef,
  slug: string,
): string {
  return `${entityPath(entity)}/environments/${encodeURIComponent(slug)}`;
}

/** One JSON call to the gitlab-env backend; a failure is a GitlabEnvApiError with the backend's code. */
export async function backendRequest<T>(
  apis: { discoveryApi: DiscoveryApi; fetchApi: FetchApi },
  path: string,
  options: {
    signal?: AbortSignal;
    method?: 'GET' | 'DELETE' | 'POST';
    body?: unknown;
  } = {},
): Promise<T> {
  const baseUrl = await apis.discoveryApi.getBaseUrl('gitlab-env');
  const response = await apis.fetchApi.fetch(`${baseUrl}${path}`, {
    signal: options.signal,
    method: options.method ?? 'GET',
    ...(options.body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(options.body),
    }),
  });
  if (!response.ok) {
    throw await GitlabEnvApiError.fromResponse(response);
  }
  return (await response.json()) as T;
}
