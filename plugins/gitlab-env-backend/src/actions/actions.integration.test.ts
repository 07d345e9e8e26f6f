import { mockServices } from '@backstage/backend-test-utils';
import {
  ActionsAllowedResponse,
  EntityEnvironmentsResponse,
  EnvironmentResourcesResponse,
  gitlabEnvWorkloadScalePermission,
  DiagnosticsResponse,
  EnvironmentAction,
  LOG_TAIL_CAPPED_HEADER,
  permissionForCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  RunningSimulator,
  startGitlabSimulator,
} from '@gitlab-env/gitlab-simulator';
import request from 'supertest';
import {
  storefrontComponent,
  startBackendOnSimulator,
  TEST_KAS_TUNNELS,
} from '../__testUtils__/backendOnSimulator';
import {
  stagingRelease,
  stagingReleaseChart,
  STOREFRONT_ENTITY_PATH,
  storefrontWeb,
} from '../__testUtils__/storefrontTargets';
import { AuditRecord, recordAuditEvents } from '../__testUtils__/auditRecords';
import { permissionsDenying } from '../__testUtils__/permissions';

const entities = [storefrontComponent()];
const ENTITY = STOREFRONT_ENTITY_PATH;

describe('actions on the environment objects, against the simulator', () => {
  let simulator: RunningSimulator;
  let server: any;
  const auditor = mockServices.auditor.mock();
  const denied = new Set<string>();
  const permissions = permissionsDenying(denied);
  /** The actions' audit records (resource reads are audited too, not kept here). */
  const events: AuditRecord[] = [];
  let prodSlug: string;
  let stagingSlug: string;

  beforeAll(async () => {
    simulator = await startGitlabSimulator({
      port: 0,
      tickMs: 0,
      logFollowIntervalMs: 20,
      kasTunnels: TEST_KAS_TUNNELS,
    });
    recordAuditEvents(
      auditor,
      events,
      options => options.eventId !== 'environment-resources-read',
    );
    const backend = await startBackendOnSimulator(simulator, {
      entities,
      // The environment's read is kept: a test removes an object behind it.
      gitlabEnv: { requestTimeoutMs: 5000, cacheTtlSeconds: 600 },
      features: [auditor.factory, permissions.factory],
    });
    server = backend.server;
    const list = (
      await request(server)
        .get(`${ENTITY}/environments?withHealth=false`)
        .expect(200)
    ).body as EntityEnvironmentsResponse;
    prodSlug = list.environments.find(
      e => e.name === 'production/us-region',
    )!.slug;
    stagingSlug = list.environments.find(e => e.name === 'staging')!.slug;
  });

  afterAll(async () => {
    await simulator.close();
  });

  beforeEach(() => {
    denied.clear();
    events.length = 0;
    simulator.setClusterKnobs({ forbiddenActions: [] });
    simulator.setFaults({ errorRate: 0 });
  });

  const prod = () => simulator.cluster('prod-us').store;
  const nonprod = () => simulator.cluster('nonprod').store;
  const objectIn = (
    store: any,
    kind: string,
    namespace: string,
    name: string,
  ) =>
    store
      .all()
      .find(
        (o: any) =>
          o.kind === kind &&
          o.metadata.namespace === namespace &&
          o.metadata.name === name,
      );
  const podsOf = (namespace: string) =>
    prod()
      .all()
      .filter(
        (o: any) =>
          o.kind === 'Pod' &&
          o.metadata.namespace === namespace &&
          !o.metadata.deletionTimestamp,
      )
      .map((o: any) => o.metadata.name as string);

  async function resources(slug: string) {
    return (
      await request(server)
        .get(`${ENTITY}/environments/${slug}/resources`)
        .expect(200)
    ).body as EnvironmentResourcesResponse;
  }
  const act = (slug: string, body: unknown) =>
    request(server)
      .post(`${ENTITY}/environments/${slug}/actions`)
      .send(body as object);
  /** Writes that reached the cluster, as `METHOD /apis/...` (the KAS prefix cut). */
  const kasWrites = () =>
    Object.entries(simulator.stats().byPath)
      .filter(([key]) => /^(PATCH|DELETE|PUT) /.test(key))
      .map(([key, count]) => [key.replace(/ .*\/k8s-proxy/, ' '), count]);

  const web = storefrontWeb;
  const release = stagingRelease;

  it('restarts a Deployment with the pod-template annotation kubectl rollout restart sends, audited', async () => {
    await resources(prodSlug);
    const response = await act(prodSlug, {
      action: 'workload.restart',
      target: web,
    }).expect(200);
    expect(response.body).toMatchObject({
      outcome: 'changed',
      kubectl:
        'kubectl rollout restart deployment/storefront-web -n storefront',
    });
    const annotation = objectIn(
      prod(),
      'Deployment',
      'storefront',
      'storefront-web',
    ).spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt'];
    expect(annotation).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(
      response.body.object.spec.template.metadata.annotations,
    ).toMatchObject({
      'kubectl.kubernetes.io/restartedAt': annotation,
    });
    // The cached read (kept 600 s here) was dropped: the change shows at once.
    const after = (await resources(prodSlug)).resources.find(
      o => o.kind === 'Deployment' && o.metadata?.name === 'storefront-web',
    );
    expect(
      after?.spec.template.metadata.annotations[
        'kubectl.kubernetes.io/restartedAt'
      ],
    ).toBe(annotation);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      options: {
        eventId: 'environment-action',
        meta: {
          action: 'workload.restart',
          entityRef: 'component:default/storefront',
          environment: prodSlug,
          object: web,
        },
      },
      outcome: 'success',
      meta: { outcome: 'changed', upstreamStatus: 200 },
    });
    // The auditor takes the actor from the request's credentials.
    expect(events[0].options.request).toBeDefined();
  });

  it('scales through the scale subresource and says an HPA owns the count', async () => {
    simulator.resetStats();
    const response = await act(prodSlug, {
      action: 'workload.scale',
      target: web,
      replicas: 5,
    }).expect(200);
    expect(response.body).toMatchObject({
      outcome: 'changed',
      kubectl:
        'kubectl scale deployment/storefront-web --replicas=5 -n storefront',
      autoscaler: { name: 'storefront-web' },
    });
    expect(response.body.warnings[0]).toMatch(
      /HorizontalPodAutoscaler storefront-web/,
    );
    expect(kasWrites().map(([key]) => key)).toEqual([
      'PATCH /apis/apps/v1/namespaces/storefront/deployments/storefront-web/scale',
    ]);
    expect(
      objectIn(prod(), 'Deployment', 'storefront', 'storefront-web').spec
        .replicas,
    ).toBe(5);
  });

  it('refuses a scale without valid replicas before asking the cluster', async () => {
    simulator.resetStats();
    const response = await act(prodSlug, {
      action: 'workload.scale',
      target: web,
      replicas: -2,
    }).expect(400);
    expect(response.body.gitlabEnv.code).toBe('INVALID_REQUEST');
    expect(kasWrites()).toEqual([]);
  });

  const podTarget = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: 'storefront',
    name,
  });

  it('deletes a pod (one newer than the cached read too); the agent RBAC 403 comes back typed', async () => {
    // The restart above replaced the pods the cached read holds: the
    // backend finds the new ones in a fresh read.
    const [first, second] = podsOf('storefront');
    const deleted = await act(prodSlug, {
      action: 'pod.delete',
      target: podTarget(first),
    }).expect(200);
    expect(deleted.body.kubectl).toBe(
      `kubectl delete pod ${first} -n storefront`,
    );
    expect(podsOf('storefront')).not.toContain(first);

    simulator.setClusterKnobs({ forbiddenActions: ['delete pods'] });
    const forbidden = await act(prodSlug, {
      action: 'pod.delete',
      target: podTarget(second),
    }).expect(403);
    expect(forbidden.body.gitlabEnv).toMatchObject({
      code: 'ACTION_FORBIDDEN',
      upstreamStatus: 403,
    });
    expect(forbidden.body.gitlabEnv.hint).toMatch(/RBAC/);
    expect(events.at(-1)).toMatchObject({
      outcome: 'failure',
      meta: { code: 'ACTION_FORBIDDEN', upstreamStatus: 403 },
    });
    expect(podsOf('storefront')).toContain(second);
  });

  it('answers OBJECT_NOT_FOUND when the object the read listed is gone from the cluster', async () => {
    const target = { ...web, namespace: 'storefront-staging' };
    await resources(stagingSlug);
    const deployment = objectIn(
      nonprod(),
      'Deployment',
      'storefront-staging',
      'storefront-web',
    );
    const resource = nonprod().registry.forObject(deployment)!;
    nonprod().remove(resource, 'storefront-staging', 'storefront-web');
    try {
      const gone = await act(stagingSlug, {
        action: 'workload.restart',
        target,
      }).expect(404);
      expect(gone.body.gitlabEnv).toMatchObject({
        code: 'OBJECT_NOT_FOUND',
        upstreamStatus: 404,
      });
      expect(gone.body.gitlabEnv.hint).toMatch(/refresh/i);
    } finally {
      nonprod().upsert(deployment);
    }
  });

  it('refuses, before KAS, an object of another namespace or not among the environment’s objects', async () => {
    simulator.resetStats();
    for (const target of [
      { ...web, namespace: 'kube-system' },
      { ...web, name: 'not-listed' },
      { ...web, namespace: 'storefront-staging' },
    ]) {
      const response = await act(prodSlug, {
        action: 'workload.restart',
        target,
      }).expect(403);
      expect(response.body.gitlabEnv.code).toBe('OUTSIDE_ENVIRONMENT');
    }
    expect(kasWrites()).toEqual([]);
    expect(events.map(e => e.outcome)).toEqual([
      'failure',
      'failure',
      'failure',
    ]);
  });

  it("decides refusals from the environment's state: 20 at once cost at most one list of each kind named, in its namespace, and nothing else", async () => {
    // The environment's state is held (read once before).
    await resources(prodSlug);
    simulator.resetStats();
    const refused = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? act(prodSlug, {
              action: 'pod.delete',
              target: {
                apiVersion: 'v1',
                kind: 'Pod',
                namespace: 'storefront',
                name: `not-a-pod-${i}`,
              },
            })
          : act(prodSlug, {
              action: 'workload.restart',
              target: { ...web, name: `not-a-deployment-${i}` },
            }),
      ),
    );
    for (const response of refused) {
      expect(response.status).toBe(403);
      expect(response.body.gitlabEnv.code).toBe('OUTSIDE_ENVIRONMENT');
    }
    const kas = Object.entries(simulator.stats().byPath).filter(([key]) =>
      key.includes('/k8s-proxy/'),
    );
    // At most the one kind each names, listed again once in its namespace.
    for (const [, count] of kas) expect(count).toBeLessThanOrEqual(1);
    expect(
      kas
        .map(([key]) => key.replace(/ .*\/k8s-proxy/, ' '))
        .filter(
          key =>
            key !== 'GET /api/v1/namespaces/storefront/pods' &&
            key !== 'GET /apis/apps/v1/namespaces/storefront/deployments',
        ),
    ).toEqual([]);
    expect(kasWrites()).toEqual([]);
  });

  /** Every action, its environment and target, and the RBAC entry that forbids it in the simulator. */
  const EVERY_ACTION = () => [
    {
      action: 'pod.delete',
      slug: prodSlug,
      target: podTarget(podsOf('storefront')[0]),
      rbac: 'delete pods',
    },
    {
      action: 'workload.restart',
      slug: prodSlug,
      target: web,
      rbac: 'patch apps/deployments',
    },
    {
      action: 'workload.scale',
      slug: prodSlug,
      target: web,
      replicas: 2,
      rbac: 'patch deployments/scale',
    },
    {
      action: 'flux.reconcile',
      slug: stagingSlug,
      target: release,
      rbac: 'patch helm.toolkit.fluxcd.io/helmreleases',
    },
    {
      action: 'flux.suspend',
      slug: stagingSlug,
      target: release,
      rbac: 'patch helm.toolkit.fluxcd.io/helmreleases',
    },
    {
      action: 'flux.resume',
      slug: stagingSlug,
      target: release,
      rbac: 'patch helm.toolkit.fluxcd.io/helmreleases',
    },
  ];

  it('refuses each action the user lacks the permission for, before KAS, audited', async () => {
    for (const { action, slug, target, replicas } of EVERY_ACTION()) {
      denied.clear();
      events.length = 0;
      const permission = permissionForCapability(action as EnvironmentAction);
      denied.add(permission.name);
      simulator.resetStats();
      const response = await act(slug, { action, target, replicas }).expect(
        403,
      );
      expect(response.body.gitlabEnv.code).toBe('NOT_ALLOWED');
      expect(response.body.gitlabEnv.message).toContain(permission.name);
      expect(kasWrites()).toEqual([]);
      expect(events[0]).toMatchObject({
        outcome: 'failure',
        meta: { code: 'NOT_ALLOWED' },
      });
    }
  });

  it('answers the agent RBAC’s 403 to each action as ACTION_FORBIDDEN, audited with the upstream status', async () => {
    await resources(prodSlug);
    await resources(stagingSlug);
    for (const { action, slug, target, replicas, rbac } of EVERY_ACTION()) {
      events.length = 0;
      simulator.setClusterKnobs({ forbiddenActions: [rbac] });
      const response = await act(slug, { action, target, replicas }).expect(
        403,
      );
      expect(response.body.gitlabEnv).toMatchObject({
        code: 'ACTION_FORBIDDEN',
        upstreamStatus: 403,
      });
      expect(events[0]).toMatchObject({
        outcome: 'failure',
        meta: { code: 'ACTION_FORBIDDEN', upstreamStatus: 403 },
      });
    }
    // A refusal of one object says nothing about the agent: the
    // diagnostics keep the agents answering and record no failure.
    const diagnostics = (
      await request(server).get('/api/gitlab-env/diagnostics').expect(200)
    ).body as DiagnosticsResponse;
    const [instance] = diagnostics.instances;
    expect(
      instance.agents
        .filter(a => ['prod-us', 'nonprod'].includes(a.name))
        .map(a => a.lastResult),
    ).toEqual(['ok', 'ok']);
    expect(
      instance.recentFailures.filter(f => f.error.code === 'ACTION_FORBIDDEN'),
    ).toEqual([]);
  });

  it('never retries a write the cluster failed', async () => {
    await resources(prodSlug);
    simulator.resetStats();
    simulator.setFaults({ errorRate: 1, errorKind: '5xx' });
    const response = await act(prodSlug, {
      action: 'workload.restart',
      target: web,
    });
    simulator.setFaults({ errorRate: 0 });
    expect(response.status).toBe(502);
    expect(response.body.gitlabEnv.code).toBe('UPSTREAM_ERROR');
    expect(kasWrites()).toEqual([
      [
        'PATCH /apis/apps/v1/namespaces/storefront/deployments/storefront-web',
        1,
      ],
    ]);
  });

  it('reconciles a HelmRelease with its HelmChart first, suspends and resumes it', async () => {
    nonprod().upsert(stagingReleaseChart() as any);
    await resources(stagingSlug);
    const reconciled = await act(stagingSlug, {
      action: 'flux.reconcile',
      target: release,
      withSource: true,
    }).expect(200);
    expect(reconciled.body.kubectl).toMatch(
      /^kubectl annotate --overwrite helmchart\.source\.toolkit\.fluxcd\.io\/flux-system-storefront-staging -n flux-system reconcile\.fluxcd\.io\/requestedAt=.* && kubectl annotate --overwrite helmrelease\.helm\.toolkit\.fluxcd\.io\/storefront-staging /,
    );
    const chartAt = objectIn(
      nonprod(),
      'HelmChart',
      'flux-system',
      'flux-system-storefront-staging',
    ).metadata.annotations['reconcile.fluxcd.io/requestedAt'];
    const releaseAt = objectIn(
      nonprod(),
      'HelmRelease',
      'flux-system',
      'storefront-staging',
    ).metadata.annotations['reconcile.fluxcd.io/requestedAt'];
    expect(chartAt).toBeDefined();
    expect(releaseAt).toBe(chartAt);

    await act(stagingSlug, { action: 'flux.suspend', target: release }).expect(
      200,
    );
    expect(
      objectIn(nonprod(), 'HelmRelease', 'flux-system', 'storefront-staging')
        .spec.suspend,
    ).toBe(true);
    const resumed = await act(stagingSlug, {
      action: 'flux.resume',
      target: release,
    }).expect(200);
    expect(resumed.body.kubectl).toBe(
      `kubectl patch helmrelease.helm.toolkit.fluxcd.io/storefront-staging -n flux-system --type=merge -p '{"spec":{"suspend":false}}'`,
    );
    expect(
      objectIn(nonprod(), 'HelmRelease', 'flux-system', 'storefront-staging')
        .spec.suspend,
    ).toBe(false);
  });

  it('refuses an action that does not apply to the kind', async () => {
    const response = await act(stagingSlug, {
      action: 'workload.scale',
      target: release,
      replicas: 1,
    }).expect(400);
    expect(response.body.gitlabEnv.code).toBe('ACTION_NOT_APPLICABLE');
  });

  it('says what is allowed: permission framework, cluster RBAC (SelfSubjectAccessReview), environment', async () => {
    const [pod] = podsOf('storefront');
    denied.add(gitlabEnvWorkloadScalePermission.name);
    simulator.setClusterKnobs({ forbiddenActions: ['delete pods'] });
    await resources(prodSlug);
    const body = (
      await request(server)
        .post(`${ENTITY}/environments/${prodSlug}/actions/allowed`)
        .send({
          targets: [web, podTarget(pod), { ...web, namespace: 'elsewhere' }],
        })
        .expect(200)
    ).body as ActionsAllowedResponse;
    expect(body.targets[0].decisions).toEqual({
      'workload.restart': { allowed: true },
      'workload.scale': {
        allowed: false,
        reason: expect.stringContaining('gitlab-env.workloads.scale'),
      },
      'workload.rollback': { allowed: true },
    });
    expect(body.targets[1].decisions['pod.logs']).toEqual({ allowed: true });
    expect(body.targets[1].decisions['pod.delete']).toEqual({
      allowed: false,
      reason: expect.stringMatching(
        /RBAC does not let agent prod-us delete pods in storefront/,
      ),
    });
    expect(body.targets[2].decisions['workload.restart']).toMatchObject({
      allowed: false,
    });
  });

  it('streams a pod’s logs, capping the tail and saying so', async () => {
    const [pod] = podsOf('storefront');
    await resources(prodSlug);
    const response = await request(server)
      .get(`${ENTITY}/environments/${prodSlug}/logs`)
      .query({ pod, timestamps: 'true' })
      .expect(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers[LOG_TAIL_CAPPED_HEADER]).toBe('5000');
    const lines = response.text.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z /);
    expect(events[0]).toMatchObject({
      options: { eventId: 'environment-logs-read' },
      outcome: 'success',
    });

    const tail = await request(server)
      .get(`${ENTITY}/environments/${prodSlug}/logs`)
      .query({ pod, tailLines: '1' })
      .expect(200);
    expect(tail.headers[LOG_TAIL_CAPPED_HEADER]).toBeUndefined();
    expect(tail.text.trimEnd().split('\n')).toEqual([
      lines.at(-1)!.replace(/^\S+ /, ''),
    ]);
  });

  it('follows a pod’s logs: new lines arrive through the open response', async () => {
    const [pod] = podsOf('storefront');
    await resources(prodSlug);
    const { port } = server.address();
    const stop = new AbortController();
    const response = await fetch(
      `http://127.0.0.1:${port}${ENTITY}/environments/${prodSlug}/logs?pod=${pod}&tailLines=1&follow=true`,
      { signal: stop.signal },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (text.split('\n').filter(Boolean).length < 4) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    stop.abort();
    // One line of tail, then lines the simulator writes while followed.
    expect(text.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(4);
  });

  it('refuses logs of an unknown container, of a pod outside the environment, and without the permission', async () => {
    const [pod] = podsOf('storefront');
    await resources(prodSlug);
    const logs = (query: Record<string, string>) =>
      request(server)
        .get(`${ENTITY}/environments/${prodSlug}/logs`)
        .query(query);
    expect(
      (await logs({ pod, container: 'nope' }).expect(404)).body.gitlabEnv.code,
    ).toBe('LOGS_UNAVAILABLE');
    // The API server answers 400 for a container that never restarted.
    const previous = await logs({ pod, previous: 'true' }).expect(404);
    expect(previous.body.gitlabEnv).toMatchObject({
      code: 'LOGS_UNAVAILABLE',
      upstreamStatus: 400,
    });
    expect(
      (await logs({ pod: 'elsewhere-1' }).expect(403)).body.gitlabEnv.code,
    ).toBe('OUTSIDE_ENVIRONMENT');
    expect(
      (await logs({ pod, tailLines: '-1' }).expect(400)).body.gitlabEnv.code,
    ).toBe('INVALID_REQUEST');
    denied.add('gitlab-env.logs.read');
    expect((await logs({ pod }).expect(403)).body.gitlabEnv.code).toBe(
      'NOT_ALLOWED',
    );
    denied.delete('gitlab-env.logs.read');
  });
});
