import {
  eventually,
  kas,
  kasJson,
  kasPatch,
  NONPROD,
  PROD_US,
  readWatchEvents,
  useSimulator,
  watchFromList,
} from '../testing/harness';

const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';
const REVISION = 'deployment.kubernetes.io/revision';

let simRef: () => any;

/** The pod-template patch `kubectl rollout restart` sends (strategic merge). */
function restart(agent: number, path: string, at = new Date().toISOString()) {
  return kasPatch(
    simRef(),
    agent,
    path,
    {
      spec: { template: { metadata: { annotations: { [RESTARTED_AT]: at } } } },
    },
    'strategic-merge',
  );
}

describe('controllers (pkg/controller/deployment, statefulset, daemon)', () => {
  const sim = useSimulator({ tickMs: 0 });
  simRef = sim;

  afterEach(() => {
    sim().setClusterKnobs({ podStartMs: 0, podTerminationMs: 0 });
  });

  const deployments = '/apis/apps/v1/namespaces/storefront/deployments';
  const replicaSets = '/apis/apps/v1/namespaces/storefront/replicasets';

  it('rolls out a new ReplicaSet on a pod-template change (rollout restart), and observedGeneration catches up', async () => {
    const before = (
      await kasJson(sim(), PROD_US, `${deployments}/storefront-web`)
    ).body;
    const oldSets = (await kasJson(sim(), PROD_US, replicaSets)).body.items;
    const patched = await restart(PROD_US, `${deployments}/storefront-web`);
    expect(patched.status).toBe(200);
    const after = (
      await kasJson(sim(), PROD_US, `${deployments}/storefront-web`)
    ).body;
    expect(after.metadata.generation).toBe(before.metadata.generation + 1);
    // What `kubectl rollout status` waits for (kubectl/pkg/polymorphichelpers/rollout_status.go).
    expect(after.status).toMatchObject({
      observedGeneration: after.metadata.generation,
      replicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
    });
    const sets = (await kasJson(sim(), PROD_US, replicaSets)).body.items;
    const fresh = sets.find(
      (rs: any) =>
        !oldSets.some((o: any) => o.metadata.uid === rs.metadata.uid),
    );
    expect(
      fresh.spec.template.metadata.annotations[RESTARTED_AT],
    ).toBeDefined();
    expect(fresh.metadata.annotations[REVISION]).toBe(
      String(Number(before.metadata.annotations[REVISION]) + 1),
    );
    expect(after.metadata.annotations[REVISION]).toBe(
      fresh.metadata.annotations[REVISION],
    );
    expect(sets.filter((rs: any) => rs.spec.replicas > 0)).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ name: fresh.metadata.name }),
      }),
    ]);
    const pods = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
    ).body.items;
    expect(pods).toHaveLength(3);
    expect(
      pods.every(
        (p: any) => p.metadata.ownerReferences[0].name === fresh.metadata.name,
      ),
    ).toBe(true);
    const events = (
      await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/storefront/events?fieldSelector=reason%3DScalingReplicaSet',
      )
    ).body.items.map((e: any) => e.message);
    expect(events).toContain(
      `Scaled up replica set ${fresh.metadata.name} from 0 to 1`,
    );
  });

  it('with a pod start-up delay, rolls step by step within maxSurge/maxUnavailable and pods go Pending → Running', async () => {
    sim().setClusterKnobs({ podStartMs: 100 });
    const watch = await watchFromList(
      sim(),
      PROD_US,
      '/api/v1/namespaces/storefront/pods',
    );
    await restart(PROD_US, `${deployments}/storefront-web`);
    const mid = (await kasJson(sim(), PROD_US, `${deployments}/storefront-web`))
      .body;
    expect(mid.status.updatedReplicas).toBeLessThan(3);
    const done = await eventually(
      async () =>
        (
          await kasJson(sim(), PROD_US, `${deployments}/storefront-web`)
        ).body,
      d =>
        d.status.updatedReplicas === 3 &&
        d.status.replicas === 3 &&
        d.status.availableReplicas === 3,
    );
    expect(done.status.availableReplicas).toBe(3);
    const events = await readWatchEvents(
      watch,
      e => e.filter(x => x.type === 'DELETED').length >= 3,
    );
    const created = events.find(e => e.type === 'ADDED')!;
    expect(created.object.status.phase).toBe('Pending');
    expect(
      created.object.status.containerStatuses[0].state.waiting.reason,
    ).toBe('ContainerCreating');
    const started = events.find(
      e =>
        e.type === 'MODIFIED' &&
        e.object.metadata.uid === created.object.metadata.uid,
    );
    expect(started.object.status.phase).toBe('Running');
    // maxSurge 25% of 3 → 1: never more than 4 pods at once.
    let live = 3;
    let most = 3;
    for (const e of events) {
      if (e.type === 'ADDED') live += 1;
      if (e.type === 'DELETED') live -= 1;
      most = Math.max(most, live);
    }
    expect(most).toBe(4);
  });

  it('with a grace period, a rollout leaves old pods Terminating before they go, and a StatefulSet scales down gracefully', async () => {
    sim().setClusterKnobs({ podTerminationMs: 150 });
    const watch = await watchFromList(
      sim(),
      PROD_US,
      '/api/v1/namespaces/storefront/pods',
    );
    await restart(PROD_US, `${deployments}/storefront-web`);
    const status = (
      await kasJson(sim(), PROD_US, `${deployments}/storefront-web`)
    ).body.status;
    expect(status).toMatchObject({
      replicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
    });
    const events = await readWatchEvents(
      watch,
      e => e.filter(x => x.type === 'DELETED').length >= 3,
    );
    const deleted = events
      .filter(e => e.type === 'DELETED')
      .map(e => e.object.metadata.uid);
    for (const uid of deleted) {
      const marked = events.findIndex(
        e =>
          e.type === 'MODIFIED' &&
          e.object.metadata.uid === uid &&
          e.object.metadata.deletionTimestamp,
      );
      expect(marked).toBeGreaterThanOrEqual(0);
      expect(marked).toBeLessThan(
        events.findIndex(
          e => e.type === 'DELETED' && e.object.metadata.uid === uid,
        ),
      );
    }
    const sts =
      '/apis/apps/v1/namespaces/search/statefulsets/search-indexer/scale';
    await kasPatch(sim(), PROD_US, sts, { spec: { replicas: 2 } });
    const last = (
      await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/search/pods/search-indexer-2',
      )
    ).body;
    expect(last.metadata.deletionTimestamp).toBeDefined();
    const gone = await eventually(
      async () =>
        (
          await kasJson(
            sim(),
            PROD_US,
            '/api/v1/namespaces/search/pods/search-indexer-2',
          )
        ).status,
      code => code === 404,
    );
    expect(gone).toBe(404);
    // Back to three ordinals for the tests that follow.
    await kasPatch(sim(), PROD_US, sts, { spec: { replicas: 3 } });
  });

  it('scales a ReplicaSet through its scale subresource; a Deployment puts its own ReplicaSet back', async () => {
    const owned = (await kasJson(sim(), PROD_US, replicaSets)).body.items.find(
      (r: any) => r.spec.replicas > 0,
    );
    const scale = (name: string, replicas: number) =>
      kasPatch(sim(), PROD_US, `${replicaSets}/${name}/scale`, {
        spec: { replicas },
      });
    await scale(owned.metadata.name, 5);
    expect(
      (await kasJson(sim(), PROD_US, `${replicaSets}/${owned.metadata.name}`))
        .body.spec.replicas,
    ).toBe(owned.spec.replicas);
    const created = await kasJson(sim(), PROD_US, replicaSets, {
      method: 'POST',
      body: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'standalone' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'standalone' } },
          template: {
            metadata: { labels: { app: 'standalone' } },
            spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
          },
        },
      }),
    });
    expect(created.status).toBe(201);
    const scaled = await scale('standalone', 4);
    expect(scaled.body).toMatchObject({ kind: 'Scale', spec: { replicas: 4 } });
    const pods = (
      await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/storefront/pods?labelSelector=app%3Dstandalone',
      )
    ).body.items;
    expect(pods).toHaveLength(4);
    expect(
      (await kasJson(sim(), PROD_US, `${replicaSets}/standalone`)).body.status,
    ).toMatchObject({
      replicas: 4,
      readyReplicas: 4,
    });
  });

  it('rolls a StatefulSet from the highest ordinal down to a new controller-revision-hash', async () => {
    const path = '/apis/apps/v1/namespaces/search/statefulsets/search-indexer';
    const before = (await kasJson(sim(), PROD_US, path)).body;
    const list = (
      await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/search/pods?labelSelector=app.kubernetes.io%2Fname%3Dsearch-indexer',
      )
    ).body;
    const oldPods = list.items;
    const watch = await kas(
      sim(),
      PROD_US,
      `/api/v1/namespaces/search/pods?watch=1&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=5`,
    );
    await restart(PROD_US, path);
    const after = (await kasJson(sim(), PROD_US, path)).body;
    expect(after.status.updateRevision).not.toBe(before.status.updateRevision);
    expect(after.status).toMatchObject({
      observedGeneration: after.metadata.generation,
      currentRevision: after.status.updateRevision,
      updatedReplicas: 3,
      readyReplicas: 3,
    });
    const pods = (
      await kasJson(
        sim(),
        PROD_US,
        '/api/v1/namespaces/search/pods?labelSelector=app.kubernetes.io%2Fname%3Dsearch-indexer',
      )
    ).body.items;
    expect(pods.map((p: any) => p.metadata.name).sort()).toEqual(
      oldPods.map((p: any) => p.metadata.name).sort(),
    );
    expect(
      pods.every(
        (p: any) =>
          p.metadata.labels['controller-revision-hash'] ===
          after.status.updateRevision,
      ),
    ).toBe(true);
    expect(
      pods.some((p: any) =>
        oldPods.some((o: any) => o.metadata.uid === p.metadata.uid),
      ),
    ).toBe(false);
    const revisions = (
      await kasJson(
        sim(),
        PROD_US,
        '/apis/apps/v1/namespaces/search/controllerrevisions',
      )
    ).body.items;
    expect(revisions.map((r: any) => r.metadata.name)).toContain(
      after.status.updateRevision,
    );
    const events = await readWatchEvents(
      watch,
      e => e.filter(x => x.type === 'DELETED').length >= 3,
    );
    expect(
      events.filter(e => e.type === 'DELETED').map(e => e.object.metadata.name),
    ).toEqual(['search-indexer-2', 'search-indexer-1', 'search-indexer-0']);
  });

  it('creates a DaemonSet pod per node, and rolls it on a template change', async () => {
    const path = '/apis/apps/v1/namespaces/notifications-dev/daemonsets';
    const created = await kasJson(sim(), NONPROD, path, {
      method: 'POST',
      body: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'log-shipper' },
        spec: {
          selector: { matchLabels: { app: 'log-shipper' } },
          template: {
            metadata: { labels: { app: 'log-shipper' } },
            spec: {
              containers: [{ name: 'shipper', image: 'fluent-bit:3.1' }],
            },
          },
        },
      }),
    });
    expect(created.status).toBe(201);
    const nodes = (await kasJson(sim(), NONPROD, '/api/v1/nodes')).body.items
      .length;
    const podsOf = async () =>
      (
        await kasJson(
          sim(),
          NONPROD,
          '/api/v1/namespaces/notifications-dev/pods?labelSelector=app%3Dlog-shipper',
        )
      ).body.items;
    const first = await podsOf();
    expect(first).toHaveLength(nodes);
    await restart(NONPROD, `${path}/log-shipper`);
    const ds = (await kasJson(sim(), NONPROD, `${path}/log-shipper`)).body;
    expect(ds.status).toMatchObject({
      desiredNumberScheduled: nodes,
      updatedNumberScheduled: nodes,
      numberAvailable: nodes,
      observedGeneration: ds.metadata.generation,
    });
    const second = await podsOf();
    expect(second).toHaveLength(nodes);
    expect(
      second.some((p: any) =>
        first.some((o: any) => o.metadata.uid === p.metadata.uid),
      ),
    ).toBe(false);
  });

  it('crashes a pod: CrashLoopBackOff with a restart, a BackOff event, and one fewer available replica', async () => {
    const pods = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
    ).body.items.filter((p: any) =>
      p.metadata.name.startsWith('storefront-web-'),
    );
    const victim = pods[0].metadata.name;
    sim().cluster('prod-us').crashPod('storefront', victim);
    const pod = (
      await kasJson(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/pods/${victim}`,
      )
    ).body;
    expect(pod.status.containerStatuses[0]).toMatchObject({
      ready: false,
      restartCount: 1,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
    const deployment = (
      await kasJson(sim(), PROD_US, `${deployments}/storefront-web`)
    ).body;
    expect(deployment.status.availableReplicas).toBe(pods.length - 1);
    const backOff = (
      await kasJson(
        sim(),
        PROD_US,
        `/api/v1/namespaces/storefront/events?fieldSelector=involvedObject.name%3D${victim}`,
      )
    ).body.items;
    expect(backOff).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: 'BackOff' }),
    );
  });

  it('makes a workload crash-loop when its simulator.gitlab-env/state annotation is set to crashloop through the API', async () => {
    const patched = await kasPatch(
      sim(),
      NONPROD,
      '/apis/apps/v1/namespaces/notifications-dev/deployments/mailhog',
      {
        metadata: {
          annotations: { 'simulator.gitlab-env/state': 'crashloop' },
        },
      },
    );
    expect(patched.status).toBe(200);
    const pods = (
      await kasJson(
        sim(),
        NONPROD,
        '/api/v1/namespaces/notifications-dev/pods?labelSelector=app.kubernetes.io%2Fname%3Dmailhog',
      )
    ).body.items;
    expect(pods.length).toBeGreaterThan(0);
    expect(
      pods.every(
        (p: any) =>
          p.status.containerStatuses[0].state.waiting?.reason ===
          'CrashLoopBackOff',
      ),
    ).toBe(true);
    const deployment = (
      await kasJson(
        sim(),
        NONPROD,
        '/apis/apps/v1/namespaces/notifications-dev/deployments/mailhog',
      )
    ).body;
    expect(deployment.status.availableReplicas).toBeUndefined();
  });

  it("explains each crash-looping pod a rollout restart creates with the kubelet's BackOff event", async () => {
    const path =
      '/apis/apps/v1/namespaces/checkout-staging/deployments/checkout-api';
    expect((await restart(NONPROD, path)).status).toBe(200);
    const pods = (
      await kasJson(sim(), NONPROD, '/api/v1/namespaces/checkout-staging/pods')
    ).body.items.filter(
      (p: any) =>
        p.status.containerStatuses?.[0]?.state?.waiting?.reason ===
        'CrashLoopBackOff',
    );
    expect(pods.length).toBeGreaterThan(0);
    const events = (
      await kasJson(
        sim(),
        NONPROD,
        '/api/v1/namespaces/checkout-staging/events',
      )
    ).body.items;
    for (const pod of pods) {
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'Warning',
          reason: 'BackOff',
          involvedObject: expect.objectContaining({ uid: pod.metadata.uid }),
        }),
      );
    }
  });

  it('deletes a pod gracefully: Terminating first, replaced at once, gone after the grace period', async () => {
    sim().setClusterKnobs({ podTerminationMs: 200 });
    const pods = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
    ).body.items;
    const victim = pods[0].metadata.name;
    const deleted = await kasJson(
      sim(),
      PROD_US,
      `/api/v1/namespaces/storefront/pods/${victim}`,
      {
        method: 'DELETE',
      },
    );
    expect(deleted.body.metadata.deletionTimestamp).toBeDefined();
    const during = (
      await kasJson(sim(), PROD_US, '/api/v1/namespaces/storefront/pods')
    ).body.items;
    expect(during).toHaveLength(pods.length + 1);
    const gone = await eventually(
      async () =>
        (
          await kasJson(
            sim(),
            PROD_US,
            `/api/v1/namespaces/storefront/pods/${victim}`,
          )
        ).status,
      status => status === 404,
    );
    expect(gone).toBe(404);
  });

  describe('Flux (fluxcd.io "Triggering a reconcile", "Suspending and resuming")', () => {
    const path =
      '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout-api';
    const annotate = (value: string) =>
      kasPatch(sim(), PROD_US, path, {
        metadata: {
          annotations: { 'reconcile.fluxcd.io/requestedAt': value },
        },
      });
    const suspend = (value: boolean) =>
      kasPatch(sim(), PROD_US, path, { spec: { suspend: value } });

    it('notes a reconcile request as handled, not while suspended, and on resume', async () => {
      expect((await annotate('first')).body.status.lastHandledReconcileAt).toBe(
        'first',
      );
      await suspend(true);
      const suspended = (await annotate('second')).body;
      expect(suspended.spec.suspend).toBe(true);
      expect(suspended.status.lastHandledReconcileAt).toBe('first');
      const resumed = (await suspend(false)).body;
      expect(resumed.status).toMatchObject({
        lastHandledReconcileAt: 'second',
        observedGeneration: resumed.metadata.generation,
      });
    });
  });
});
