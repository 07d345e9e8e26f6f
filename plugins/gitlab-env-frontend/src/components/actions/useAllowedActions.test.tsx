// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { TestApiProvider, registerMswTestHooks } from '@backstage/test-utils';
import {
  ActionTarget,
  ActionsAllowedRequest,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvClient, gitlabEnvApiRef } from '../../api';
import { allowedAnswer } from '../../__testUtils__/actionFixtures';
import { BASE_URL, ENTITY_URL } from '../../__testUtils__/renderTab';
import { EnvironmentScopeProvider } from './EnvironmentScope';
import { useAllowedActionsOf } from './useAllowedActions';

const server = setupServer();
registerMswTestHooks(server);

const entity = { kind: 'component', namespace: 'default', name: 'storefront' };

function Providers({ children }: { children: React.ReactNode }) {
  const client = new GitlabEnvClient({
    discoveryApi: { getBaseUrl: async () => BASE_URL },
    fetchApi: { fetch },
  });
  return (
    <TestApiProvider apis={[[gitlabEnvApiRef, client]]}>
      <EnvironmentScopeProvider
        entity={entity}
        environmentSlug="production"
        refresh={() => {}}
      >
        {children}
      </EnvironmentScopeProvider>
    </TestApiProvider>
  );
}

describe('useAllowedActionsOf', () => {
  it('asks for at most 200 targets a request, as the route takes, and answers in the list’s order', async () => {
    const sizes: number[] = [];
    server.use(
      http.post(
        `${ENTITY_URL}/environments/production/actions/allowed`,
        async ({ request }) => {
          const body = (await request.json()) as ActionsAllowedRequest;
          sizes.push(body.targets.length);
          // Only the request holding app-250 may scale: the list keeps its order.
          return HttpResponse.json(
            allowedAnswer(
              body,
              body.targets.some(t => t.name === 'app-250')
                ? {}
                : { 'workload.scale': 'Not this one.' },
            ),
          );
        },
      ),
    );
    const targets: ActionTarget[] = Array.from({ length: 251 }, (_, i) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'shop',
      name: `app-${i}`,
    }));
    const { result } = renderHook(() => useAllowedActionsOf(targets), {
      wrapper: Providers,
    });
    await waitFor(() => expect(result.current.decisions).toHaveLength(251));
    expect(sizes.sort((a, b) => a - b)).toEqual([51, 200]);
    expect(result.current.decisions![0]['workload.scale']).toEqual({
      allowed: false,
      reason: 'Not this one.',
    });
    expect(result.current.decisions![250]['workload.scale']).toEqual({
      allowed: true,
    });
  });
});
