import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { mockApis, registerMswTestHooks } from '@backstage/test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { EnvironmentActionRequest } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  environmentsResponse,
  shopResources,
} from '../../__testUtils__/fixtures';
import { allowedRoute } from '../../__testUtils__/actionFixtures';
import {
  ENTITY_URL,
  addressQuery,
  noLiveUpdates,
  renderTab,
} from '../../__testUtils__/renderTab';
import {
  CHANGES_OF_42,
  MERGE_REQUESTS,
  OLDER_PAGE,
  PROMOTION,
  REVISIONS,
  VERSIONS,
  deploymentHistory,
  timeline,
} from '../../__testUtils__/historyFixtures';

const server = setupServer();
registerMswTestHooks(server);
// Each test renders the whole tab: slow on a busy machine.
jest.setTimeout(30_000);

const ENV_URL = `${ENTITY_URL}/environments/production`;

function serve(history = deploymentHistory()) {
  const calls = {
    cursors: [] as Array<string | null>,
    rollbacks: [] as string[],
    actions: [] as EnvironmentActionRequest[],
    timeline: [] as URLSearchParams[],
    promotions: [] as string[],
  };
  server.use(
    noLiveUpdates(),
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json(environmentsResponse()),
    ),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
      HttpResponse.json(shopResources()),
    ),
    http.get(`${ENV_URL}/desired`, () => HttpResponse.json({})),
    allowedRoute(),
    http.get(`${ENV_URL}/deployments`, ({ request }) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      calls.cursors.push(cursor);
      return HttpResponse.json(cursor === 'page-2' ? OLDER_PAGE : history);
    }),
    http.get(`${ENV_URL}/deployments/1042/changes`, () =>
      HttpResponse.json(CHANGES_OF_42),
    ),
    http.post(`${ENV_URL}/deployments/:id/rollback`, ({ params }) => {
      calls.rollbacks.push(String(params.id));
      return HttpResponse.json({
        job: { id: '6000', name: 'deploy-production' },
        message:
          'GitLab started job #6000, which deploys main at 41a1b2c3 again.',
        command: 'curl …',
      });
    }),
    http.get(`${ENV_URL}/revisions`, () => HttpResponse.json(REVISIONS)),
    http.post(`${ENV_URL}/actions`, async ({ request }) => {
      const body = (await request.json()) as EnvironmentActionRequest;
      calls.actions.push(body);
      return HttpResponse.json({
        outcome: 'changed',
        message: `Did ${body.action} on ${body.target.name}.`,
        kubectl: 'kubectl …',
      });
    }),
    http.get(`${ENTITY_URL}/timeline`, ({ request }) => {
      calls.timeline.push(new URL(request.url).searchParams);
      return HttpResponse.json(timeline());
    }),
    http.get(`${ENTITY_URL}/versions`, () => HttpResponse.json(VERSIONS)),
    http.get(`${ENTITY_URL}/promotion`, ({ request }) => {
      calls.promotions.push(new URL(request.url).search);
      return HttpResponse.json(PROMOTION);
    }),
    http.get(`${ENTITY_URL}/merge-requests/preview`, () =>
      HttpResponse.json(MERGE_REQUESTS),
    ),
  );
  return calls;
}

/** A page of older timeline entries: one rollout, summarised as given. */
function olderEntries(summary: string) {
  return {
    ...timeline(),
    entries: [
      {
        id: `older-${summary}`,
        kind: 'rollout' as const,
        at: new Date(Date.now() - 5 * 86_400_000).toISOString(),
        environment: 'production',
        summary,
        links: [],
      },
    ],
  };
}

async function openTimelineAndAskOlderEntries() {
  await renderTab({ route: '/?env=production&panel=timeline' });
  await userEvent.click(
    await screen.findByRole(
      'button',
      { name: 'Older entries' },
      { timeout: 10_000 },
    ),
  );
}

async function deploymentsTable() {
  return screen.findByRole(
    'table',
    { name: 'Deployments' },
    { timeout: 10_000 },
  );
}

/** The history panel of production, with checkout-api's rollback to revision 6 asked for: its dialog. */
async function openRollbackToRevision6() {
  await renderTab({ route: '/?env=production&panel=history' });
  const revisions = await screen.findByRole(
    'table',
    { name: 'Revisions of Deployment checkout-api' },
    { timeout: 10_000 },
  );
  const roll = within(revisions).getByRole('button', {
    name: 'Roll back Deployment checkout-api to revision 6',
  });
  await waitFor(() => expect(roll).toBeEnabled());
  await userEvent.click(roll);
  return screen.findByRole('dialog', {
    name: 'Roll Deployment checkout-api back to revision 6?',
  });
}
describe('an environment’s history', () => {
  it('lists deployments with who, job, pipeline and duration, pages older ones, and shows what one brought', async () => {
    const calls = serve();
    await renderTab({ route: '/?env=production&panel=history' });
    const table = await deploymentsTable();
    const row42 = within(table).getByText('#42').closest('tr')!;
    expect(within(row42).getByText('success')).toBeInTheDocument();
    expect(within(row42).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(
      within(row42).getByRole('link', { name: /^deploy-production #5042/ }),
    ).toHaveAttribute(
      'href',
      'https://gitlab.example.com/acme/shop/-/jobs/5042',
    );
    expect(
      within(row42).getByRole('link', { name: /^pipeline #42/ }),
    ).toBeInTheDocument();
    expect(within(row42).getByText('3m 05s')).toBeInTheDocument();

    await userEvent.click(
      within(row42).getByRole('button', {
        name: 'Show what deployment #42 brought',
      }),
    );
    const brought = await screen.findByRole('region', {
      name: 'What deployment #42 brought',
    });
    expect(brought).toHaveTextContent(
      'Since deployment #41 (main): 2 commits.',
    );
    expect(
      within(brought).getByText('Pay with vouchers at checkout'),
    ).toBeInTheDocument();
    expect(
      within(brought).getByRole('link', { name: /^!17/ }),
    ).toBeInTheDocument();
    const images = within(brought).getByRole('table', {
      name: 'Changed images',
    });
    expect(images).toHaveTextContent(
      'registry.example.com/shop/checkout:1.4.0',
    );
    expect(images).toHaveTextContent(
      'registry.example.com/shop/checkout:1.5.0',
    );

    await userEvent.click(
      screen.getByRole('button', { name: 'Older deployments' }),
    );
    expect(await within(table).findByText('#38')).toBeInTheDocument();
    expect(calls.cursors).toEqual([null, 'page-2']);
    expect(
      screen.queryByRole('button', { name: 'Older deployments' }),
    ).toBeNull();
  });

  it('rolls back in GitLab after a confirmation naming the job and the command', async () => {
    const calls = serve();
    await renderTab({ route: '/?env=production&panel=history' });
    await deploymentsTable();
    // The current deployment and a failed one say why not.
    expect(
      screen.getByRole('button', { name: 'Roll back to deployment #42' }),
    ).toBeDisabled();
    await userEvent.click(
      screen.getByRole('button', { name: 'Roll back to deployment #41' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Roll production back to deployment #41?',
    });
    expect(dialog).toHaveTextContent(
      'GitLab runs job deploy-production #5041 of pipeline #41 again',
    );
    expect(
      within(dialog).getByLabelText('GitLab API command'),
    ).toHaveTextContent('/jobs/5041/retry');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Re-run job #5041' }),
    );
    expect(
      await screen.findByText(
        'GitLab started job #6000, which deploys main at 41a1b2c3 again.',
      ),
    ).toBeInTheDocument();
    expect(calls.rollbacks).toEqual(['1041']);
  });

  it('shows the GitLab rollback disabled with its reason without a rollback token', async () => {
    serve(
      deploymentHistory({
        gitlabRollback: {
          configured: false,
          reason: 'No rollback token is configured for gitlab.example.com.',
        },
      }),
    );
    await renderTab({ route: '/?env=production&panel=history' });
    await deploymentsTable();
    expect(
      screen.getByText(
        /No rollback token is configured for gitlab\.example\.com\./,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Roll back to deployment #41' }),
    ).toBeDisabled();
  });

  it('disables the GitLab rollback for a user the policy denies', async () => {
    serve();
    await renderTab({
      route: '/?env=production&panel=history',
      permissionApi: mockApis.permission({ authorize: AuthorizeResult.DENY }),
    });
    await deploymentsTable();
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Roll back to deployment #41' }),
      ).toBeDisabled(),
    );
  });

  it('rolls a Flux-managed Deployment back to a revision, suspending Flux first, after showing the template diff', async () => {
    const calls = serve();
    const dialog = await openRollbackToRevision6();
    const diff = within(dialog).getByRole('table', {
      name: 'Pod template changes',
    });
    expect(diff).toHaveTextContent('spec.containers[name=api].image');
    expect(diff).toHaveTextContent(
      'registry.example.com/shop/checkout:1.5.0registry.example.com/shop/checkout:1.4.0',
    );
    expect(dialog).toHaveTextContent(
      'its next reconcile puts the template of the repository back',
    );
    const commands = within(dialog).getByRole('list', {
      name: 'kubectl commands',
    });
    expect(commands).toHaveTextContent(
      'kubectl rollout undo deployment/checkout-api --to-revision=6 -n shop',
    );
    expect(commands).not.toHaveTextContent('suspend');

    const suspend = within(dialog).getByRole('checkbox', {
      name: /Suspend Kustomization shop first/,
    });
    await waitFor(() => expect(suspend).toBeEnabled());
    await userEvent.click(suspend);
    expect(commands).toHaveTextContent(
      `kubectl patch kustomization.kustomize.toolkit.fluxcd.io/shop -n flux-system --type=merge -p '{"spec":{"suspend":true}}'`,
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Roll back to revision 6' }),
    );
    expect(
      await screen.findByText('Did workload.rollback on checkout-api.'),
    ).toBeInTheDocument();
    expect(
      calls.actions.map(a => [a.action, a.target.name, a.toRevision]),
    ).toEqual([
      ['flux.suspend', 'shop', undefined],
      ['workload.rollback', 'checkout-api', 6],
    ]);
  });
});

describe('a rollback that fails after Flux was suspended', () => {
  it('says Flux stays suspended, and a retry does not suspend it again', async () => {
    const calls = serve();
    server.use(
      http.post(`${ENV_URL}/actions`, async ({ request }) => {
        const body = (await request.json()) as EnvironmentActionRequest;
        calls.actions.push(body);
        return body.action === 'flux.suspend'
          ? HttpResponse.json({
              outcome: 'changed',
              message: 'Suspended shop.',
              kubectl: 'kubectl …',
            })
          : HttpResponse.json(
              {
                error: {
                  name: 'ConflictError',
                  message: 'The Deployment changed meanwhile.',
                },
              },
              { status: 409 },
            );
      }),
    );
    const dialog = await openRollbackToRevision6();
    const suspend = within(dialog).getByRole('checkbox', {
      name: /Suspend Kustomization shop first/,
    });
    await waitFor(() => expect(suspend).toBeEnabled());
    await userEvent.click(suspend);
    const confirm = within(dialog).getByRole('button', {
      name: 'Roll back to revision 6',
    });
    await userEvent.click(confirm);
    expect(
      await within(dialog).findByText(/Kustomization shop is suspended now/),
    ).toBeInTheDocument();
    await waitFor(() => expect(confirm).toBeEnabled());
    await userEvent.click(confirm);
    await waitFor(() => expect(calls.actions).toHaveLength(3));
    expect(calls.actions.map(a => a.action)).toEqual([
      'flux.suspend',
      'workload.rollback',
      'workload.rollback',
    ]);
  });
});

describe('the timeline', () => {
  it('shows entries on a time axis with the cause of a health transition, filtered by kind and zoomed', async () => {
    const calls = serve();
    await renderTab({ route: '/?env=production&panel=timeline' });
    const transition = await screen.findByText(
      'Healthy → Degraded',
      {},
      { timeout: 10_000 },
    );
    const item = transition.closest('li')!;
    expect(item).toHaveTextContent(
      'caused by Deployment checkout-api: Deployment exceeded its progress deadline',
    );
    expect(
      within(item).getByRole('link', { name: 'Deployment checkout-api' }),
    ).toHaveAttribute(
      'href',
      expect.stringContaining('object=apps%2FDeployment%2Fshop%2Fcheckout-api'),
    );
    expect(screen.getByRole('link', { name: /^job #5042/ })).toHaveAttribute(
      'href',
      'https://gitlab.example.com/acme/shop/-/jobs/5042',
    );
    expect(
      screen.getByRole('button', { name: /^Healthy → Degraded at / }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Kept for 90 days\./)).toBeInTheDocument();
    const first = calls.timeline[0];
    expect(first.get('environment')).toBe('production');
    expect(first.get('kinds')).toBeNull();
    const week = Date.now() - Number(first.get('from'));
    expect(week).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(week).toBeLessThan(7 * 86_400_000 + 60_000);

    await userEvent.click(
      screen.getByRole('button', { name: 'Warning events' }),
    );
    await waitFor(() => expect(calls.timeline).toHaveLength(2));
    expect(calls.timeline[1].get('kinds')).toBe(
      'deployment,rollout,flux,health,action',
    );

    await userEvent.click(screen.getByRole('button', { name: '1h' }));
    await waitFor(() => expect(calls.timeline).toHaveLength(3));
    const hour = Date.now() - Number(calls.timeline[2].get('from'));
    expect(hour).toBeLessThan(3_600_000 + 60_000);
  });

  it('retries an older page that failed with the same cursor, keeping the entries above it', async () => {
    const cursors: Array<string | null> = [];
    serve();
    server.use(
      http.get(`${ENTITY_URL}/timeline`, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        cursors.push(cursor);
        if (cursor === null)
          return HttpResponse.json({ ...timeline(), nextCursor: 'older-1' });
        if (cursors.filter(c => c === cursor).length === 1)
          return HttpResponse.json(
            {
              error: { name: 'GitlabEnvError', message: 'timed out' },
              gitlabEnv: {
                code: 'UPSTREAM_TIMEOUT',
                message: 'The timeline read timed out.',
              },
            },
            { status: 504 },
          );
        return HttpResponse.json(olderEntries('Rollout of checkout-api 5'));
      }),
    );
    await openTimelineAndAskOlderEntries();
    expect(
      await screen.findByText('The timeline read timed out.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Healthy → Degraded')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByText('Rollout of checkout-api 5'),
    ).toBeInTheDocument();
    expect(screen.getByText('Healthy → Degraded')).toBeInTheDocument();
    expect(screen.queryByText('The timeline read timed out.')).toBeNull();
    expect(cursors).toEqual([null, 'older-1', 'older-1']);
  });

  it('never adds an older page of the previous filter to the list of a new one', async () => {
    const calls = serve();
    let answerOlder = () => {};
    const olderAsked = new Promise<void>(asked => {
      server.use(
        http.get(`${ENTITY_URL}/timeline`, async ({ request }) => {
          const query = new URL(request.url).searchParams;
          calls.timeline.push(query);
          if (query.get('cursor') === 'older-1') {
            asked();
            await new Promise<void>(go => {
              answerOlder = go;
            });
            return HttpResponse.json(olderEntries('Stale rollout entry'));
          }
          return HttpResponse.json(
            query.get('kinds')
              ? { ...timeline(), entries: timeline().entries.slice(1) }
              : { ...timeline(), nextCursor: 'older-1' },
          );
        }),
      );
    });
    await openTimelineAndAskOlderEntries();
    await olderAsked;
    // The filter changes while the older page is on its way.
    await userEvent.click(screen.getByRole('button', { name: 'Health' }));
    await waitFor(() =>
      expect(screen.queryByText('Healthy → Degraded')).toBeNull(),
    );
    expect(
      screen.getByText('Deployment #42 of main succeeded'),
    ).toBeInTheDocument();

    answerOlder();
    // A request made after the late answer was sent has its answer after it.
    await fetch(`${ENTITY_URL}/versions`);
    await waitFor(() =>
      expect(
        screen.getByText('Deployment #42 of main succeeded'),
      ).toBeInTheDocument(),
    );
    expect(screen.queryByText('Stale rollout entry')).toBeNull();
    expect(calls.timeline.map(q => [q.get('cursor'), q.get('kinds')])).toEqual([
      [null, null],
      ['older-1', null],
      [null, 'deployment,rollout,flux,event,action'],
    ]);
  });

  it('keeps the last kind of entries on: none would ask for every kind', async () => {
    serve();
    await renderTab({ route: '/?env=production&panel=timeline' });
    const kinds = await screen.findByRole(
      'group',
      { name: 'Kinds of entries' },
      { timeout: 10_000 },
    );
    const chips = within(kinds).getAllByRole('button');
    for (const chip of chips.slice(1)) await userEvent.click(chip);
    expect(chips[0]).toHaveAttribute('aria-pressed', 'true');
    expect(chips[0]).toHaveAttribute('aria-disabled', 'true');
    expect(
      chips.slice(1).every(c => c.getAttribute('aria-pressed') === 'false'),
    ).toBe(true);
  });

  it('opens the object an entry names in the resources', async () => {
    serve();
    await renderTab({ route: '/?env=production&panel=timeline' });
    await userEvent.click(
      await screen.findByRole(
        'link',
        { name: 'Deployment checkout-api' },
        { timeout: 10_000 },
      ),
    );
    await waitFor(() =>
      expect(addressQuery()).toBe(
        '?env=production&object=apps%2FDeployment%2Fshop%2Fcheckout-api',
      ),
    );
  });

  it('shows every environment of the entity, each entry naming its environment', async () => {
    const calls = serve();
    await renderTab({ route: '/?view=timeline' });
    const item = (
      await screen.findByText('Healthy → Degraded', {}, { timeout: 10_000 })
    ).closest('li')!;
    expect(within(item).getByText('production')).toBeInTheDocument();
    expect(calls.timeline[0].get('environment')).toBeNull();
  });
});

describe('versions across environments', () => {
  it('shows what each environment runs, how far behind it is, and a promotion diff', async () => {
    const calls = serve();
    await renderTab({ route: '/?view=versions' });
    const matrix = await screen.findByRole(
      'table',
      {
        name: 'Versions across environments',
      },
      { timeout: 10_000 },
    );
    const production = within(matrix)
      .getByRole('cell', { name: /^production/ })
      .closest('tr')!;
    expect(
      within(production).getByText('14 commits behind'),
    ).toBeInTheDocument();
    expect(
      within(production).getByRole('link', {
        name: /^production is 14 commits behind staging/,
      }),
    ).toHaveAttribute(
      'href',
      'https://gitlab.example.com/acme/shop/-/compare/bbbbbbbb...aaaaaaaa',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('table', {
      name: 'Differences from staging to production',
    });
    expect(calls.promotions).toEqual(['?from=staging&to=production']);
    const rows = within(diff).getAllByRole('row').slice(1);
    expect(rows.map(row => row.textContent)).toEqual([
      'Deployment checkout-apiImage · container apiregistry.example.com/shop/checkout:1.6.0registry.example.com/shop/checkout:1.5.0',
      'Deployment checkout-apiReplicas24',
      'Secret checkout-keysConfig key · key VOUCHER_API_KEYpresent (value not compared)absent',
    ]);
  });
});

describe('merge request previews', () => {
  it('shows what an open merge request would change per environment, and what it cannot compare', async () => {
    serve();
    await renderTab({ route: '/?view=merge-requests' });
    const mr = await screen.findByRole(
      'region',
      { name: 'Merge request !23' },
      { timeout: 10_000 },
    );
    const changes = within(mr).getByRole('table', {
      name: 'Changes in production',
    });
    expect(changes).toHaveTextContent('spec.replicas: 4 → 8');
    expect(changes).toHaveTextContent(
      'Flux deletes it (the Kustomization prunes)',
    );
    expect(mr).toHaveTextContent(
      'Not compared: HelmRelease shop/redis: its values are rendered by Helm.',
    );
    expect(
      screen.getByText(/2 more open merge requests change no manifest/),
    ).toBeInTheDocument();
  });
});
