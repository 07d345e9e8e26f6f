// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import {
  ActionTarget,
  ActionsAllowedRequest,
  WorkloadHistory,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  GitlabEnvClient,
  GitlabEnvHistoryClient,
  gitlabEnvApiRef,
  gitlabEnvHistoryApiRef,
} from '../../api';
import { allowedAnswer } from '../../__testUtils__/actionFixtures';
import { REVISIONS } from '../../__testUtils__/historyFixtures';
import { BASE_URL, ENTITY_URL } from '../../__testUtils__/renderTab';
import { EnvironmentScopeProvider } from '../actions/EnvironmentScope';
import { WorkloadRevisions } from './WorkloadRevisions';

const server = setupServer();
registerMswTestHooks(server);

const ENV_URL = `${ENTITY_URL}/environments/production`;
const entity = { kind: 'component', namespace: 'default', name: 'storefront' };
const REFUSED =
  'The agent may not patch statefulsets in shop (cluster RBAC): ask the cluster’s admins.';

/** The fixture's Deployment, and more workloads of other kinds beside it. */
function workloads(): WorkloadHistory[] {
  const [checkout] = REVISIONS.workloads;
  const like = (kind: string, name: string): WorkloadHistory => ({
    ...checkout,
    managedBy: undefined,
    target: { ...checkout.target, kind, name },
    historyCommand: `kubectl rollout history ${kind.toLowerCase()}/${name} --namespace shop`,
  });
  return [
    checkout,
    like('Deployment', 'cart'),
    like('StatefulSet', 'redis'),
    like('DaemonSet', 'log-shipper'),
  ];
}

function serve() {
  const asked: ActionTarget[][] = [];
  server.use(
    http.get(`${ENV_URL}/revisions`, () =>
      HttpResponse.json({ workloads: workloads() }),
    ),
    http.post(`${ENV_URL}/actions/allowed`, async ({ request }) => {
      const body = (await request.json()) as ActionsAllowedRequest;
      asked.push(body.targets);
      // The cluster refuses the StatefulSet alone, as RBAC would per resource.
      return HttpResponse.json({
        targets: body.targets.map(
          target =>
            allowedAnswer(
              { targets: [target] },
              target.kind === 'StatefulSet'
                ? { 'workload.rollback': REFUSED }
                : {},
            ).targets[0],
        ),
      });
    }),
  );
  return asked;
}

function render() {
  const discoveryApi = { getBaseUrl: async () => BASE_URL };
  const fetchApi = { fetch };
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [gitlabEnvApiRef, new GitlabEnvClient({ discoveryApi, fetchApi })],
        [
          gitlabEnvHistoryApiRef,
          new GitlabEnvHistoryClient({ discoveryApi, fetchApi }),
        ],
      ]}
    >
      <EnvironmentScopeProvider
        entity={entity}
        environmentSlug="production"
        refresh={() => {}}
      >
        <WorkloadRevisions entity={entity} environmentSlug="production" />
      </EnvironmentScopeProvider>
    </TestApiProvider>,
  );
}

describe('workload revisions', () => {
  it('asks what the user may do with every workload listed in one request, and says per workload why not', async () => {
    const asked = serve();
    await render();
    const rollBack = (heading: string) =>
      within(
        screen.getByRole('table', { name: `Revisions of ${heading}` }),
      ).getByRole('button', { name: `Roll back ${heading} to revision 6` });

    await screen.findByRole('table', {
      name: 'Revisions of DaemonSet log-shipper',
    });
    await waitFor(() =>
      expect(rollBack('Deployment checkout-api')).toBeEnabled(),
    );
    expect(rollBack('Deployment cart')).toBeEnabled();
    expect(rollBack('DaemonSet log-shipper')).toBeEnabled();
    expect(rollBack('StatefulSet redis')).toBeDisabled();
    expect(screen.getByLabelText(REFUSED)).toContainElement(
      rollBack('StatefulSet redis'),
    );

    expect(asked).toHaveLength(1);
    expect(asked[0].map(target => `${target.kind} ${target.name}`)).toEqual([
      'Deployment checkout-api',
      'Deployment cart',
      'StatefulSet redis',
      'DaemonSet log-shipper',
    ]);
  });
});
