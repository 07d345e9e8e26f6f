// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { Entity } from '@backstage/catalog-model';
import { discoveryApiRef, fetchApiRef } from '@backstage/core-plugin-api';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import {
  TestApiProvider,
  mockApis,
  renderInTestApp,
} from '@backstage/test-utils';
import { useLocation } from 'react-router-dom';
import { HttpResponse, http } from 'msw';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import {
  EnvironmentResourcesResponse,
  environmentObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  GitlabEnvClient,
  GitlabEnvHistoryClient,
  GitlabEnvLiveClient,
  gitlabEnvHistoryApiRef,
  GitlabEnvLiveClientOptions,
  gitlabEnvApiRef,
  gitlabEnvLiveApiRef,
} from '../api';
import { EntityGitlabEnvContent } from '../components/EntityGitlabEnvContent';

export const BASE_URL = 'http://backstage.test/api/gitlab-env';
export const ENTITY_URL = `${BASE_URL}/entity/default/component/storefront`;

/**
 * The live route as a backend without live updates answers it: the page
 * falls back to polling the resources route.
 */
export function noLiveUpdates() {
  return http.get(
    `${BASE_URL}/live`,
    () => new HttpResponse(null, { status: 404 }),
  );
}

/**
 * The drawer's object route as the backend answers it from its live store:
 * `environmentObject` of the state the test serves for the environment
 * (what its read answers), 404 for a node the state lacks. `requests`
 * collects the ids asked for.
 */
export function objectRoute(
  stateOf: (slug: string) => EnvironmentResourcesResponse | undefined,
  requests?: string[],
) {
  return http.get(
    `${ENTITY_URL}/environments/:slug/object`,
    ({ params, request }) => {
      const id = new URL(request.url).searchParams.get('id') ?? '';
      requests?.push(id);
      const state = stateOf(String(params.slug));
      const answer = state && environmentObject(state, id);
      return answer
        ? HttpResponse.json(answer)
        : HttpResponse.json(
            { error: { name: 'NotFoundError', message: `No object ${id}` } },
            { status: 404 },
          );
    },
  );
}

export const storefront: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'storefront',
    annotations: { 'gitlab.com/project-slug': 'acme/shop' },
  },
  spec: { type: 'service', owner: 'team-shop', lifecycle: 'production' },
};

/** The address's query, for tests of what the tab writes there. */
function AddressProbe() {
  return <output data-testid="address">{useLocation().search}</output>;
}

/** The query of the address the tab is at (`?env=…`). */
export function addressQuery(): string {
  return document.querySelector('[data-testid="address"]')?.textContent ?? '';
}

/**
 * Renders the tab over a real `GitlabEnvClient` and `GitlabEnvLiveClient`,
 * so the HTTP calls go through msw like they go through the network in the
 * portal. A test that does not serve the live route sees the polling
 * fallback.
 */
export function renderTab({
  route = '/',
  refreshIntervalMs = 60_000,
  live = {},
  permissionApi = mockApis.permission(),
}: {
  route?: string;
  refreshIntervalMs?: number;
  live?: GitlabEnvLiveClientOptions;
  /** Allows everything unless a test says otherwise. */
  permissionApi?: typeof permissionApiRef.T;
} = {}) {
  const discoveryApi = { getBaseUrl: async () => BASE_URL };
  const fetchApi = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
  };
  const client = new GitlabEnvClient({ discoveryApi, fetchApi });
  const liveClient = new GitlabEnvLiveClient({
    discoveryApi,
    fetchApi,
    gitlabEnvApi: client,
    options: {
      pollIntervalMs: refreshIntervalMs,
      settleMs: 5,
      initialBackoffMs: 20,
      maxBackoffMs: 40,
      ...live,
    },
  });
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [gitlabEnvApiRef, client],
        [gitlabEnvLiveApiRef, liveClient],
        [
          gitlabEnvHistoryApiRef,
          new GitlabEnvHistoryClient({ discoveryApi, fetchApi }),
        ],
        [permissionApiRef, permissionApi],
        [discoveryApiRef, { getBaseUrl: async () => BASE_URL }],
        [fetchApiRef, { fetch }],
      ]}
    >
      <EntityProvider entity={storefront}>
        <EntityGitlabEnvContent refreshIntervalMs={refreshIntervalMs} />
      </EntityProvider>
      <AddressProbe />
    </TestApiProvider>,
    { routeEntries: [route] },
  );
}
