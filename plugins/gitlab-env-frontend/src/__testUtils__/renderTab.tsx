// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { Entity } from '@backstage/catalog-model';
import { discoveryApiRef, fetchApiRef } from '@backstage/core-plugin-api';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { TestApiProvider, renderInTestApp } from '@backstage/test-utils';
import { GitlabEnvClient, gitlabEnvApiRef } from '../api';
import { EntityGitlabEnvContent } from '../components/EntityGitlabEnvContent';

export const BASE_URL = 'http://backstage.test/api/gitlab-env';
export const ENTITY_URL = `${BASE_URL}/entity/default/component/storefront`;

export const storefront: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'storefront',
    annotations: { 'gitlab.com/project-slug': 'acme/shop' },
  },
  spec: { type: 'service', owner: 'team-shop', lifecycle: 'production' },
};

/**
 * Renders the tab over a real `GitlabEnvClient`, so the HTTP calls go
 * through msw like they go through the network in the portal.
 */
export function renderTab({
  route = '/',
  refreshIntervalMs = 60_000,
}: { route?: string; refreshIntervalMs?: number } = {}) {
  const client = new GitlabEnvClient({
    discoveryApi: { getBaseUrl: async () => BASE_URL },
    fetchApi: { fetch: (input, init) => fetch(input, init) },
  });
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [gitlabEnvApiRef, client],
        [discoveryApiRef, { getBaseUrl: async () => BASE_URL }],
        [fetchApiRef, { fetch }],
      ]}
    >
      <EntityProvider entity={storefront}>
        <EntityGitlabEnvContent refreshIntervalMs={refreshIntervalMs} />
      </EntityProvider>
    </TestApiProvider>,
    { routeEntries: [route] },
  );
}
