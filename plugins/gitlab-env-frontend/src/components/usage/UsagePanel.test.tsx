import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { registerMswTestHooks } from '@backstage/test-utils';
import {
  EnvironmentUsageResponse,
  PodUsage,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
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
jest.setTimeout(30_000);
beforeEach(() => server.use(noLiveUpdates()));

const USAGE_URL = `${ENTITY_URL}/environments/production/usage`;

const figure = (
  usage: number | undefined,
  request?: number,
  limit?: number,
) => ({
  usage,
  request,
  limit,
  overLimit: usage !== undefined && limit !== undefined && usage > limit,
  requestMissing: request === undefined,
});

function podUsage(name: string, cpu: number, memory: number): PodUsage {
  return {
    namespace: 'shop',
    name,
    workload: { kind: 'Deployment', namespace: 'shop', name: 'cart' },
    measured: true,
    cpu: figure(cpu, 0.1, 0.5),
    memory: figure(memory, undefined, 512 * 2 ** 20),
    containers: [],
  };
}

const pods = [
  podUsage('cart-6f7d-a', 0.62, 300 * 2 ** 20),
  podUsage('cart-6f7d-b', 0.05, 120 * 2 ** 20),
];

function usageAnswer(
  extra: Partial<EnvironmentUsageResponse> = {},
): EnvironmentUsageResponse {
  return {
    metrics: { available: true, window: '15s' },
    kubectl: 'kubectl top pod cart-6f7d-a -n shop --containers',
    pods,
    workloads: [
      {
        kind: 'Deployment',
        namespace: 'shop',
        name: 'cart',
        pods: 2,
        measuredPods: 2,
        cpu: { ...figure(0.67, 0.2, 1), overLimit: true },
        memory: figure(420 * 2 ** 20, undefined, 2 ** 30),
      },
    ],
    intervalSeconds: 15,
    ...extra,
  };
}

function serve(answer: (query: URLSearchParams) => EnvironmentUsageResponse) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(`${ENTITY_URL}/environments`, () =>
      HttpResponse.json(environmentsResponse()),
    ),
    http.get(`${ENTITY_URL}/environments/:slug/resources`, () =>
      HttpResponse.json(fluxResources()),
    ),
    objectRoute(() => fluxResources()),
    allowedRoute({}),
    http.get(USAGE_URL, ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      return HttpResponse.json(answer(query));
    }),
  );
  return queries;
}

async function openUsage(kind: string, name: string) {
  await renderTab({ route: '/?env=production' });
  const panel = await screen.findByRole('region', {
    name: 'Resources of production',
  });
  fireEvent.click(
    await within(panel).findByLabelText(new RegExp(`^${kind} ${name},`)),
  );
  const drawer = await screen.findByRole('dialog', { name: `${kind} ${name}` });
  await userEvent.click(within(drawer).getByRole('tab', { name: 'Usage' }));
  return drawer;
}

describe('the Usage tab of the drawer', () => {
  it("shows a pod's CPU and memory against its request and limit, marks over limit and no requests, and the sampled trend", async () => {
    const queries = serve(() =>
      usageAnswer({
        trend: {
          source: 'sampled',
          stepSeconds: 15,
          points: [
            { at: '2026-11-26T10:00:00Z', cpu: 0.4, memory: 280 * 2 ** 20 },
            { at: '2026-11-26T10:00:15Z', cpu: 0.62, memory: 300 * 2 ** 20 },
          ],
        },
      }),
    );
    const drawer = await openUsage('Pod', 'cart-6f7d-a');
    const table = await within(drawer).findByRole('table', {
      name: 'Usage now',
    });
    const cpu = within(table).getByRole('row', { name: /^CPU/ });
    expect(cpu).toHaveTextContent('CPU620m100m500m');
    expect(
      within(table).getByRole('row', { name: /^Memory/ }),
    ).toHaveTextContent('Memory300Minot set512Mi');
    expect(drawer).toHaveTextContent('Over limit: CPU');
    expect(drawer).toHaveTextContent('No requests set: Memory');
    expect(drawer).toHaveTextContent(
      'Sampled every 15 s while this page is open (2 samples)',
    );
    expect(
      within(drawer).getByRole('img', { name: 'CPU trend from 400m to 620m' }),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByRole('list', { name: 'kubectl top' }),
    ).toHaveTextContent('kubectl top pod cart-6f7d-a -n shop --containers');
    expect(Object.fromEntries(queries[0])).toEqual({ pod: 'cart-6f7d-a' });
  });

  it("shows a workload's usage summed over its pods, each pod, and the PromQL of a trend from the cluster's Prometheus", async () => {
    const queries = serve(() =>
      usageAnswer({
        kubectl: "kubectl top pod -n shop -l 'app=cart' --containers",
        prometheus: {
          service: 'monitoring/kube-prometheus-stack-prometheus:http-web',
        },
        trend: {
          source: 'prometheus',
          stepSeconds: 60,
          prometheus: 'monitoring/kube-prometheus-stack-prometheus:http-web',
          queries: {
            cpu: 'sum(rate(container_cpu_usage_seconds_total{namespace="shop",pod=~"cart-6f7d-a|cart-6f7d-b",container!="",container!="POD"}[5m]))',
            memory:
              'sum(container_memory_working_set_bytes{namespace="shop",pod=~"cart-6f7d-a|cart-6f7d-b",container!="",container!="POD"})',
          },
          points: Array.from({ length: 180 }, (_, i) => ({
            at: new Date(Date.UTC(2026, 10, 26, 7) + i * 60_000).toISOString(),
            cpu: 0.3 + (i % 10) / 100,
            memory: 400 * 2 ** 20,
          })),
        },
      }),
    );
    const drawer = await openUsage('Deployment', 'cart');
    const table = await within(drawer).findByRole('table', {
      name: 'Usage now',
    });
    expect(within(table).getByRole('row', { name: /^CPU/ })).toHaveTextContent(
      'CPU670m200m1',
    );
    expect(drawer).toHaveTextContent(
      "From the cluster's Prometheus (monitoring/kube-prometheus-stack-prometheus:http-web), the last 3 h at 60 s steps.",
    );
    expect(
      within(drawer).getByRole('list', { name: 'PromQL' }),
    ).toHaveTextContent(
      'sum(rate(container_cpu_usage_seconds_total{namespace="shop",pod=~"cart-6f7d-a|cart-6f7d-b"',
    );
    const podRows = within(
      within(drawer).getByRole('table', { name: 'Pods' }),
    ).getAllByRole('row');
    expect(podRows.map(r => r.textContent)).toEqual([
      'PodCPUMemoryMarks',
      'cart-6f7d-a620m300MiOver limit: CPUNo requests set: Memory',
      'cart-6f7d-b50m120MiNo requests set: Memory',
    ]);
    expect(Object.fromEntries(queries[0])).toEqual({
      workload: 'Deployment/cart',
    });
  });

  it('says once, plainly, that the cluster has no metrics API', async () => {
    serve(() =>
      usageAnswer({
        metrics: {
          available: false,
          reason:
            'This cluster has no metrics API (metrics.k8s.io): without metrics-server there is no CPU and memory usage to show.',
        },
        pods: pods.map(p => ({
          ...p,
          measured: false,
          cpu: figure(undefined, 0.1, 0.5),
          memory: figure(undefined, undefined, 512 * 2 ** 20),
        })),
      }),
    );
    const drawer = await openUsage('Pod', 'cart-6f7d-a');
    await within(drawer).findByText(/This cluster has no metrics API/);
    expect(within(drawer).getAllByText(/no metrics API/)).toHaveLength(1);
    const table = within(drawer).getByRole('table', { name: 'Usage now' });
    expect(within(table).getByRole('row', { name: /^CPU/ })).toHaveTextContent(
      'CPU–100m500m',
    );
  });
});
