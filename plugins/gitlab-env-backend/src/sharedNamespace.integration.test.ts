import {
  EnvironmentResourcesResponse,
  KubernetesObject,
  LiveMessage,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { RunningSimulator } from '@gitlab-env/gitlab-simulator';
import { AddressInfo } from 'net';
import {
  component,
  startBackendOnSimulator,
  startTestSimulator,
} from './__testUtils__/backendOnSimulator';
import { openLiveStream } from './__testUtils__/liveStream';

// examples/scenarios/default: search-indexer's staging (GitLabDeployment,
// Flux Kustomization search-indexer-staging) and load-test (found by the
// deploy-board annotations of its Deployment search-loadgen) share the
// nonprod namespace search-staging.
const searchIndexer = component('search-indexer', {
  'gitlab.com/project-id': '104',
});
const NAMESPACE = 'search-staging';

const ids = (objects: KubernetesObject[]) =>
  objects
    .filter(o => o.metadata?.namespace === NAMESPACE)
    .map(o => `${o.kind}/${o.metadata?.name}`)
    .sort();

function loadgenDeployment(
  name: string,
  meta: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  },
) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NAMESPACE, uid: `uid-${name}`, ...meta },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      },
    },
  };
}

jest.setTimeout(20_000);

describe('a namespace two environments share, against the simulator', () => {
  let simulator: RunningSimulator;
  let backend: Awaited<ReturnType<typeof startBackendOnSimulator>>;
  let url: string;

  beforeEach(async () => {
    simulator = await startTestSimulator();
    backend = await startBackendOnSimulator(simulator, {
      entities: [searchIndexer],
      gitlabEnv: {
        requestTimeoutMs: 5000,
        live: { graceSeconds: 0.3, heartbeatSeconds: 1 },
      },
    });
    url = `http://127.0.0.1:${(backend.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await backend.stop();
    await simulator.close();
  });

  it('narrows the live stream as the read does, and keeps narrowing as objects come', async () => {
    const read = (await (
      await fetch(
        `${url}/api/gitlab-env/entity/default/component/search-indexer/environments/load-test/resources`,
      )
    ).json()) as EnvironmentResourcesResponse;
    const stream = await openLiveStream(url, [
      'component:default/search-indexer/load-test',
    ]);
    try {
      const first = await stream.next(e => e.message.type === 'snapshot');
      const snapshot = (
        first.message as Extract<LiveMessage, { type: 'snapshot' }>
      ).resources;
      expect(ids(snapshot.resources)).toEqual(ids(read.resources));
      expect(ids(snapshot.resources)).toContain('Deployment/search-loadgen');
      expect(ids(snapshot.resources)).not.toContain('Deployment/search-api');
      expect(snapshot.scope.narrowed).toEqual(read.scope.narrowed);

      // Staging's (Flux-applied) then load-test's (annotated): only the
      // second reaches load-test's stream.
      const { store } = simulator.cluster('nonprod');
      store.upsert(
        loadgenDeployment('staging-extra', {
          labels: {
            'kustomize.toolkit.fluxcd.io/name': 'search-indexer-staging',
            'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
          },
        }),
      );
      store.upsert(
        loadgenDeployment('loadgen-extra', {
          annotations: {
            'app.gitlab.com/app': 'acme-platform-search-indexer',
            'app.gitlab.com/env': 'load-test',
          },
        }),
      );
      // A patch, never a snapshot: one more of staging's objects hidden is
      // said in the status.
      const carries = (e: { message: LiveMessage }, name: string) =>
        (e.message.type === 'patch' &&
          e.message.patch.objectsUpserted.some(
            o => o.metadata?.name === name,
          )) ||
        (e.message.type === 'snapshot' &&
          e.message.resources.resources.some(o => o.metadata?.name === name));
      await stream.next(e => carries(e, 'loadgen-extra'));
      await stream.next(
        e =>
          e.message.type === 'status' &&
          e.message.narrowed?.hidden === snapshot.scope.narrowed!.hidden + 1,
      );
      expect(stream.events.some(e => carries(e, 'staging-extra'))).toBe(false);
      expect(
        stream.events.filter(e => e.message.type === 'snapshot'),
      ).toHaveLength(1);
    } finally {
      await stream.close();
    }
  });

  it('finds its namespace one namespace at a time where RBAC refuses lists across the cluster, and says where it could not look', async () => {
    // RoleBindings per namespace only: the simulator answers 403 to lists
    // of namespaced kinds across all namespaces (FaultKnobs.namespacedRbacOnly).
    simulator.setFaults({ namespacedRbacOnly: true });
    const get = async (slug: string) =>
      fetch(
        `${url}/api/gitlab-env/entity/default/component/search-indexer/environments/${slug}/resources`,
      );
    const loadTest = (await (
      await get('load-test')
    ).json()) as EnvironmentResourcesResponse;
    // search-staging is where staging (its GitLabDeployment) deploys.
    expect(loadTest.scope.namespace).toBe(NAMESPACE);
    expect(loadTest.environment.namespaceSource?.source).toBe('label');

    const perf = await get('perf');
    expect(perf.status).toBe(409);
    const body = await perf.json();
    expect(body.gitlabEnv.code).toBe('NO_NAMESPACE');
    expect(body.gitlabEnv.message).toContain(
      'listing apps/Deployment across the cluster is forbidden to the agent; all the namespaces it is known to deploy to (search-staging) could be listed instead',
    );
  });
});
