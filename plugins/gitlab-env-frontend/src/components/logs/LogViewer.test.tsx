import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import { LOG_TAIL_CAPPED_HEADER } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { environmentsResponse } from '../../__testUtils__/fixtures';
import {
  allowedRoute,
  fluxResources,
} from '../../__testUtils__/actionFixtures';
import {
  ENTITY_URL,
  noLiveUpdates,
  objectRoute,
  renderTab,
} from '../../__testUtils__/renderTab';

const server = setupServer();
registerMswTestHooks(server);
// Each test renders the whole tab and walks to a dialog: slow on a busy machine.
jest.setTimeout(30_000);
// The backend answers the live route as one without live updates does, and
// the tab polls (the live path has its own tests).
beforeEach(() => server.use(noLiveUpdates()));

const ENV_URL = `${ENTITY_URL}/environments/production`;

/** A log stream the test writes to while the page reads it. */
class LogFeed {
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  readonly stream = new ReadableStream<Uint8Array>({
    start: controller => {
      this.controller = controller;
    },
  });
  write(text: string) {
    this.controller!.enqueue(new TextEncoder().encode(text));
  }
  close() {
    this.controller!.close();
  }
}

/**
 * Serves the environment and its logs route: each request gets the feed
 * `logs` makes for its query, so a test can write lines while the page
 * follows them.
 */
function serve(
  logs: (query: URLSearchParams) =>
    | {
        feed: LogFeed;
        headers?: Record<string, string>;
      }
    | Response,
  denied: Parameters<typeof allowedRoute>[0] = {},
) {
  const requests: URLSearchParams[] = [];
  server.use(
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json(environmentsResponse()),
    ),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
      HttpResponse.json(fluxResources()),
    ),
    objectRoute(() => fluxResources()),
    allowedRoute(denied),
    http.get(`${ENV_URL}/logs`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      requests.push(query);
      const answer = logs(query);
      if (answer instanceof Response) return answer;
      return new HttpResponse(answer.feed.stream, {
        headers: { 'content-type': 'text/plain', ...answer.headers },
      });
    }),
  );
  return requests;
}

async function openLogs(kind: string, name: string) {
  await renderTab({ route: '/?env=production' });
  const panel = await screen.findByRole('region', {
    name: 'Resources of production',
  });
  fireEvent.click(
    await within(panel).findByLabelText(new RegExp(`^${kind} ${name},`)),
  );
  const drawer = await screen.findByRole('dialog', { name: `${kind} ${name}` });
  await userEvent.click(within(drawer).getByRole('tab', { name: 'Logs' }));
  return drawer;
}

const lineTexts = (drawer: HTMLElement) =>
  Array.from(
    within(drawer)
      .getByRole('log', { name: 'Log lines' })
      .querySelectorAll('.log-line'),
  ).map(line => line.textContent);

describe('the log viewer', () => {
  it('follows a pod’s log as it streams, lines split across chunks', async () => {
    const feed = new LogFeed();
    const requests = serve(() => ({ feed }));
    const drawer = await openLogs('Pod', 'cart-6f7d-a');

    feed.write('2026-11-23T22:00:00Z starting\n2026-11-23T22:00:01Z lis');
    await within(drawer).findByText('starting');
    feed.write('tening on :8080\n');
    await within(drawer).findByText('listening on :8080');
    feed.write('2026-11-23T22:00:02Z GET /cart 200\n');
    await within(drawer).findByText('GET /cart 200');
    expect(lineTexts(drawer)).toEqual([
      'starting',
      'listening on :8080',
      'GET /cart 200',
    ]);
    expect(drawer).toHaveTextContent('3 lines · following');
    expect(drawer).toHaveTextContent(
      'Showing the last 500 lines, then new lines as they come.',
    );
    expect(Object.fromEntries(requests[0])).toEqual({
      pod: 'cart-6f7d-a',
      namespace: 'shop',
      container: 'app',
      tailLines: '500',
      timestamps: 'true',
      follow: 'true',
    });

    feed.close();
    await within(drawer).findByText('3 lines · stream ended');
  });

  it('offers every container, init and ephemeral ones too, and reads the one chosen', async () => {
    const requests = serve(() => {
      const feed = new LogFeed();
      feed.close();
      return { feed };
    });
    const drawer = await openLogs('Pod', 'cart-6f7d-a');
    await userEvent.click(
      within(drawer).getByRole('combobox', { name: 'Container' }),
    );
    const options = await screen.findAllByRole('option');
    expect(options.map(option => option.textContent)).toEqual([
      'app',
      'proxy',
      'migrate (init)',
      'debugger (ephemeral)',
    ]);
    await userEvent.click(
      screen.getByRole('option', { name: 'migrate (init)' }),
    );
    await waitFor(() =>
      expect(requests[requests.length - 1].get('container')).toBe('migrate'),
    );
  });

  it('reads the previous container without following, and since a time', async () => {
    const requests = serve(() => {
      const feed = new LogFeed();
      feed.close();
      return { feed };
    });
    const drawer = await openLogs('Pod', 'cart-6f7d-a');
    await userEvent.click(within(drawer).getByLabelText('Previous container'));
    await waitFor(() =>
      expect(requests[requests.length - 1].get('previous')).toBe('true'),
    );
    expect(requests[requests.length - 1].get('follow')).toBeNull();
    expect(within(drawer).getByLabelText('Follow')).toBeDisabled();

    await userEvent.click(
      within(drawer).getByRole('combobox', { name: 'Since' }),
    );
    await userEvent.click(screen.getByRole('option', { name: '1 hour' }));
    await waitFor(() =>
      expect(requests[requests.length - 1].get('sinceSeconds')).toBe('3600'),
    );
  });

  it('says when the backend capped the tail', async () => {
    serve(() => {
      const feed = new LogFeed();
      feed.write('one\n');
      feed.close();
      return { feed, headers: { [LOG_TAIL_CAPPED_HEADER]: '5000' } };
    });
    const drawer = await openLogs('Pod', 'cart-6f7d-a');
    expect(
      await within(drawer).findByText(
        /Showing the last 5,000 lines: the backend returns no more at once/,
      ),
    ).toBeInTheDocument();
  });

  it('highlights and counts what the search finds, shows timestamps and wraps on request', async () => {
    serve(() => {
      const feed = new LogFeed();
      feed.write(
        '2026-11-23T22:00:00Z GET /cart 200\n2026-11-23T22:00:01Z GET /health 200\n2026-11-23T22:00:02Z POST /cart 500\n',
      );
      feed.close();
      return { feed };
    });
    const drawer = await openLogs('Pod', 'cart-6f7d-a');
    await within(drawer).findByText('POST /cart 500');
    await userEvent.type(within(drawer).getByLabelText('Search'), 'CART');
    expect(
      await within(drawer).findByText('2 matching lines'),
    ).toBeInTheDocument();
    const marks = within(drawer).getByRole('log').querySelectorAll('mark');
    expect(Array.from(marks).map(mark => mark.textContent)).toEqual([
      'cart',
      'cart',
    ]);

    expect(
      within(drawer).queryByText('2026-11-23T22:00:00Z'),
    ).not.toBeInTheDocument();
    await userEvent.click(within(drawer).getByLabelText('Timestamps'));
    expect(
      within(drawer).getByText('2026-11-23T22:00:00Z'),
    ).toBeInTheDocument();

    const line = within(drawer).getByText('GET /health 200');
    expect(line).toHaveStyle({ whiteSpace: 'pre' });
    await userEvent.click(within(drawer).getByLabelText('Wrap lines'));
    expect(within(drawer).getByText('GET /health 200')).toHaveStyle({
      whiteSpace: 'pre-wrap',
    });
  });

  it('downloads the lines it holds', async () => {
    serve(() => {
      const feed = new LogFeed();
      feed.write('2026-11-23T22:00:00Z one\n2026-11-23T22:00:01Z two\n');
      feed.close();
      return { feed };
    });
    const blobs: Blob[] = [];
    const createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:logs';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => {});
    const drawer = await openLogs('Pod', 'cart-6f7d-a');
    await within(drawer).findByText('two');
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Download' }),
    );
    expect(click).toHaveBeenCalled();
    expect(await blobs[0].text()).toBe('one\ntwo\n');
    click.mockRestore();
  });

  it('picks a workload’s pod, or interleaves all its pods by time', async () => {
    const requests = serve(query => {
      const feed = new LogFeed();
      feed.write(
        query.get('pod') === 'cart-6f7d-a'
          ? '2026-11-23T22:00:01Z a first\n2026-11-23T22:00:03Z a second\n'
          : '2026-11-23T22:00:02Z b first\n',
      );
      feed.close();
      return { feed };
    });
    const drawer = await openLogs('Deployment', 'cart');
    await within(drawer).findByText('a second');
    expect(requests.map(q => q.get('pod'))).toEqual(['cart-6f7d-a']);

    await userEvent.click(
      within(drawer).getByRole('combobox', { name: 'Pod' }),
    );
    await userEvent.click(
      screen.getByRole('option', { name: 'All pods, interleaved by time' }),
    );
    await within(drawer).findByText('b first');
    expect(lineTexts(drawer)).toEqual([
      'cart-6f7d-aa first',
      'cart-6f7d-bb first',
      'cart-6f7d-aa second',
    ]);
  });

  it('explains a log the cluster cannot give, with what to do', async () => {
    serve(() =>
      HttpResponse.json(
        {
          error: { name: 'GitlabEnvError', message: 'no logs' },
          gitlabEnv: {
            code: 'LOGS_UNAVAILABLE',
            message:
              'previous terminated container "app" in pod "cart-6f7d-a" not found',
            hint: 'The container has not restarted; turn off “previous”.',
          },
        },
        { status: 400 },
      ),
    );
    const drawer = await openLogs('Pod', 'cart-6f7d-a');
    expect(
      await within(drawer).findByText(
        'previous terminated container "app" in pod "cart-6f7d-a" not found',
      ),
    ).toBeInTheDocument();
    expect(drawer).toHaveTextContent(
      'What to do: The container has not restarted; turn off “previous”.',
    );
  });

  it('says why, instead of streaming, when the user may not read a pod’s logs', async () => {
    const requests = serve(
      () => {
        const feed = new LogFeed();
        feed.close();
        return { feed };
      },
      { 'pod.logs': 'You do not have the permission gitlab-env.logs.read.' },
    );
    const drawer = await openLogs('Pod', 'cart-6f7d-a');
    expect(
      await within(drawer).findByText(
        'You cannot read these logs: You do not have the permission gitlab-env.logs.read.',
      ),
    ).toBeInTheDocument();
    expect(requests).toEqual([]);
  });
});
