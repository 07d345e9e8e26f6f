import { KubeObject } from '../scenario/types';
import { loadDefaultScenario } from '../scenario/load';
import { expandCluster } from './expand';
import { restatePod } from './pods';

const now = new Date('2026-11-22T12:00:00Z');

const labels = { app: 'web' };
const manifests: KubeObject[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      annotations: { 'simulator.gitlab-env/revision': '3' },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'web:1.2',
              ports: [{ name: 'http', containerPort: 8080 }],
            },
          ],
        },
      },
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      selector: labels,
      ports: [{ name: 'http', port: 80, targetPort: 'http' }],
    },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'shop' },
    spec: {
      replicas: 2,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'db', image: 'postgres:16' }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '5Gi' } },
          },
        },
      ],
    },
  },
  {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {
      name: 'report',
      namespace: 'shop',
      annotations: { 'simulator.gitlab-env/history': '2' },
    },
    spec: {
      schedule: '@hourly',
      jobTemplate: {
        spec: {
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'report', image: 'report:1' }],
            },
          },
        },
      },
    },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'broken',
      namespace: 'shop',
      annotations: { 'simulator.gitlab-env/state': 'crashloop' },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'broken' } },
      template: {
        metadata: { labels: { app: 'broken' } },
        spec: { containers: [{ name: 'app', image: 'broken:1' }] },
      },
    },
  },
];

const find = (
  objects: KubeObject[],
  kind: string,
  predicate: (o: KubeObject) => boolean = () => true,
) => objects.filter(o => o.kind === kind && predicate(o));
const ownedBy = (owner: KubeObject) => (o: KubeObject) =>
  o.metadata.ownerReferences?.some(
    r => r.uid === owner.metadata.uid && r.controller,
  ) ?? false;

describe('expandCluster', () => {
  const objects = expandCluster(manifests, { cluster: 'test', now });

  it('chains Pods to ReplicaSets to their Deployment through controller ownerReferences', () => {
    const [web] = find(objects, 'Deployment', o => o.metadata.name === 'web');
    const replicaSets = find(objects, 'ReplicaSet', ownedBy(web));
    expect(
      replicaSets.map(rs => [
        rs.metadata.annotations!['deployment.kubernetes.io/revision'],
        rs.spec.replicas,
      ]),
    ).toEqual([
      ['3', 2],
      ['2', 0],
    ]);
    const [current] = replicaSets;
    const hash = current.metadata.labels!['pod-template-hash'];
    expect(current.metadata.name).toBe(`web-${hash}`);
    const pods = find(objects, 'Pod', ownedBy(current));
    expect(pods).toHaveLength(2);
    expect(
      pods.every(
        p =>
          p.metadata.labels!['pod-template-hash'] === hash &&
          p.metadata.name.startsWith(`web-${hash}-`),
      ),
    ).toBe(true);
    expect(pods[0].metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: current.metadata.name,
        uid: current.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(web.status).toMatchObject({
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      observedGeneration: 1,
    });
    expect(
      web.status.conditions.map(
        (c: any) => `${c.type}=${c.status}:${c.reason}`,
      ),
    ).toEqual([
      'Available=True:MinimumReplicasAvailable',
      'Progressing=True:NewReplicaSetAvailable',
    ]);
  });

  it('publishes ready pods of a Service in an EndpointSlice and Endpoints', () => {
    const [service] = find(objects, 'Service');
    expect(service.spec.clusterIP).toMatch(/^10\.96\./);
    const [slice] = find(objects, 'EndpointSlice');
    expect(slice.metadata.labels).toMatchObject({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by':
        'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata.ownerReferences![0]).toMatchObject({
      kind: 'Service',
      uid: service.metadata.uid,
    });
    expect(slice.ports).toEqual([
      { name: 'http', port: 8080, protocol: 'TCP' },
    ]);
    const podNames = find(
      objects,
      'Pod',
      p => p.metadata.labels?.app === 'web',
    ).map(p => p.metadata.name);
    expect(slice.endpoints.map((e: any) => e.targetRef.name).sort()).toEqual(
      podNames.sort(),
    );
    expect(slice.endpoints.every((e: any) => e.conditions.ready)).toBe(true);
    const [endpoints] = find(objects, 'Endpoints');
    expect(endpoints.subsets[0].addresses).toHaveLength(2);
  });

  it('gives StatefulSet pods stable names and a bound claim each', () => {
    const [sts] = find(objects, 'StatefulSet');
    const pods = find(objects, 'Pod', ownedBy(sts));
    expect(pods.map(p => p.metadata.name)).toEqual(['db-0', 'db-1']);
    expect(pods[1].metadata.labels).toMatchObject({
      'statefulset.kubernetes.io/pod-name': 'db-1',
      'apps.kubernetes.io/pod-index': '1',
    });
    expect(pods[1].spec.volumes).toContainEqual({
      name: 'data',
      persistentVolumeClaim: { claimName: 'data-db-1' },
    });
    const claims = find(objects, 'PersistentVolumeClaim');
    expect(claims.map(c => `${c.metadata.name}:${c.status.phase}`)).toEqual([
      'data-db-0:Bound',
      'data-db-1:Bound',
    ]);
    expect(claims[0].metadata.labels).toMatchObject({ app: 'db' });
    const volumes = find(objects, 'PersistentVolume');
    expect(volumes.map(v => v.metadata.name)).toEqual(
      claims.map(c => c.spec.volumeName),
    );
    expect(find(objects, 'ControllerRevision', ownedBy(sts))).toHaveLength(1);
    expect(sts.status).toMatchObject({
      replicas: 2,
      readyReplicas: 2,
      currentRevision: pods[0].metadata.labels!['controller-revision-hash'],
    });
  });

  it('runs CronJobs as Jobs whose pods succeeded', () => {
    const [cronJob] = find(objects, 'CronJob');
    const jobs = find(objects, 'Job', ownedBy(cronJob));
    expect(jobs).toHaveLength(2);
    expect(jobs[0].status.conditions.map((c: any) => c.type)).toContain(
      'Complete',
    );
    const pods = find(objects, 'Pod', ownedBy(jobs[0]));
    expect(pods.map(p => p.status.phase)).toEqual(['Succeeded']);
    expect(pods[0].metadata.labels).toMatchObject({
      'batch.kubernetes.io/job-name': jobs[0].metadata.name,
    });
    expect(cronJob.status.lastScheduleTime).toBeDefined();
  });

  it('writes what kubelet and the controllers report for a crash loop', () => {
    const [broken] = find(
      objects,
      'Deployment',
      o => o.metadata.name === 'broken',
    );
    expect(broken.status.conditions).toContainEqual(
      expect.objectContaining({
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
      }),
    );
    const [pod] = find(
      objects,
      'Pod',
      p => p.metadata.labels?.app === 'broken',
    );
    expect(pod.status.phase).toBe('Running');
    expect(pod.status.containerStatuses[0]).toMatchObject({
      ready: false,
      restartCount: 17,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { reason: 'Error', exitCode: 1 } },
    });
    const events = find(
      objects,
      'Event',
      e => e.involvedObject.uid === pod.metadata.uid,
    );
    expect(events.map(e => `${e.type}/${e.reason}`)).toContain(
      'Warning/BackOff',
    );
  });

  it('leaves no reason or message on the conditions of a Ready pod, as kubelet clears them (pkg/kubelet/status/generate.go)', () => {
    const readiness = (pod: KubeObject) =>
      pod.status.conditions
        .filter((c: any) => ['Ready', 'ContainersReady'].includes(c.type))
        .map((c: any) => [c.type, c.status, c.reason, c.message]);
    const [ready] = find(objects, 'Pod', p => p.metadata.labels?.app === 'web');
    expect(readiness(ready)).toEqual([
      ['Ready', 'True', undefined, undefined],
      ['ContainersReady', 'True', undefined, undefined],
    ]);
    const [broken] = find(
      objects,
      'Pod',
      p => p.metadata.labels?.app === 'broken',
    );
    expect(readiness(broken)).toEqual([
      [
        'Ready',
        'False',
        'ContainersNotReady',
        'containers with unready status: [app]',
      ],
      [
        'ContainersReady',
        'False',
        'ContainersNotReady',
        'containers with unready status: [app]',
      ],
    ]);
    const recovered = restatePod(broken, 'running', {
      cluster: 'test',
      now,
      nodes: ['n1'],
    });
    expect(readiness(recovered)).toEqual(readiness(ready));
  });

  it('creates namespaces and nodes, and is deterministic', () => {
    expect(
      find(objects, 'Namespace')
        .map(n => n.metadata.name)
        .sort(),
    ).toEqual(['default', 'kube-system', 'shop']);
    expect(find(objects, 'Node')).toHaveLength(3);
    const again = expandCluster(manifests, { cluster: 'test', now });
    expect(again.map(o => o.metadata.uid)).toEqual(
      objects.map(o => o.metadata.uid),
    );
    const elsewhere = expandCluster(manifests, { cluster: 'other', now });
    expect(elsewhere[0].metadata.uid).not.toBe(objects[0].metadata.uid);
  });
});

describe('the default scenario', () => {
  const scenario = loadDefaultScenario();
  const cluster = (agent: string) =>
    scenario.clusters.find(c => c.agent === agent)!.objects;

  it('stays moderate in size', () => {
    const total = scenario.clusters.reduce((n, c) => n + c.objects.length, 0);
    expect(total).toBeGreaterThan(200);
    expect(total).toBeLessThan(600);
  });

  it('holds the states the demo shows, one per health status', () => {
    const prodUs = cluster('prod-us');
    const nonprod = cluster('nonprod');
    // Progressing: a rollout in flight with an old ReplicaSet still serving.
    const [searchApi] = find(
      prodUs,
      'Deployment',
      d => d.metadata.name === 'search-api',
    );
    expect(searchApi.status.replicas).toBeGreaterThan(
      searchApi.status.updatedReplicas - 1,
    );
    expect(searchApi.status.unavailableReplicas).toBe(1);
    // Degraded: a crash loop in checkout staging.
    expect(
      find(
        nonprod,
        'Pod',
        p =>
          p.metadata.namespace === 'checkout-staging' &&
          p.status.containerStatuses?.[0]?.state?.waiting?.reason ===
            'CrashLoopBackOff',
      ),
    ).toHaveLength(2);
    // Suspended: the nightly re-index and a paused Argo rollout.
    expect(find(prodUs, 'CronJob')[0].spec.suspend).toBe(true);
    expect(
      find(cluster('prod-eu'), 'Rollout')[0].status.pauseConditions,
    ).toHaveLength(1);
    // Missing: an inventory entry with no object behind it.
    const [ks] = find(prodUs, 'Kustomization');
    const missing = ks.status.inventory.entries.filter((e: any) => {
      const [namespace, name, , kind] = e.id.split('_');
      return !prodUs.some(
        o =>
          o.kind === kind &&
          o.metadata.name === name &&
          // Cluster-scoped entries have an empty namespace field.
          (o.metadata.namespace ?? '') === namespace,
      );
    });
    expect(missing.map((e: any) => e.id)).toEqual([
      'checkout_checkout-worker_apps_Deployment',
    ]);
    // Unknown: a pod on a lost node in the stopped review app's namespace.
    expect(
      find(
        nonprod,
        'Pod',
        p => p.metadata.namespace === 'storefront-review-old-checkout',
      ).map(p => p.status.phase),
    ).toEqual(['Unknown']);
    // Custom resources that are not ready or need their own health rules.
    expect(find(nonprod, 'Certificate')[0].status.conditions[0]).toMatchObject({
      type: 'Ready',
      status: 'False',
    });
    expect(find(nonprod, 'ScaledObject')).toHaveLength(1);
  });

  it('puts unrelated objects next to the labelled ones in notifications-dev', () => {
    const deployments = find(
      cluster('nonprod'),
      'Deployment',
      d => d.metadata.namespace === 'notifications-dev',
    );
    const partOf = deployments.map(
      d => d.metadata.labels!['app.kubernetes.io/part-of'],
    );
    expect(partOf).toContain('notifications');
    expect(partOf).toContain('dev-tools');
  });

  it('serves every agent config file from its config project', () => {
    for (const agent of scenario.agents) {
      const project = scenario.projects.find(
        p => p.fullPath === agent.configProject,
      )!;
      expect(Object.keys(project.files)).toContain(
        `.gitlab/agents/${agent.name}/config.yaml`,
      );
    }
    expect(
      scenario.agents.find(a => a.name === 'restricted')!.config.user_access!
        .projects,
    ).toEqual([{ id: 'acme/infra' }]);
  });
});

describe("helm-controller's drift detection (internal/reconcile/atomic_release.go, correct_cluster_drift.go)", () => {
  const release = (
    mode: string | undefined,
    annotations: Record<string, string> = {},
  ): KubeObject => ({
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: {
      name: 'web',
      namespace: 'flux-system',
      annotations: {
        'simulator.gitlab-env/drift':
          'Deployment/shop/web changed (0 additions, 1 changes, 0 removals)\nConfigMap/shop/cfg removed',
        ...annotations,
      },
    },
    spec: mode ? { driftDetection: { mode } } : {},
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'UpgradeSucceeded' },
        { type: 'Released', status: 'True', reason: 'UpgradeSucceeded' },
      ],
      history: [{ name: 'web', namespace: 'shop', version: 4 }],
    },
  });
  const expand = (object: KubeObject) => {
    const out = expandCluster([object], { cluster: 'c', now });
    return {
      release: out.find(o => o.kind === 'HelmRelease')!,
      events: out
        .filter(o => o.kind === 'Event')
        .map(e => `${e.type} ${e.reason}: ${e.message}`),
    };
  };
  const detected =
    'Warning DriftDetected: Cluster state of release shop/web.v4 has drifted from the desired state:\nDeployment/shop/web changed (0 additions, 1 changes, 0 removals)\nConfigMap/shop/cfg removed';

  it('records nothing when drift detection is disabled (the default)', () => {
    expect(expand(release(undefined)).events).toEqual([]);
    expect(expand(release('disabled')).events).toEqual([]);
  });

  it('warn: an Event, no condition', () => {
    const { release: r, events } = expand(release('warn'));
    expect(events).toEqual([detected]);
    expect(r.status.conditions[0]).toMatchObject({
      type: 'Ready',
      status: 'True',
    });
  });

  it('enabled: the Event, then the correction (DriftCorrected, one ssa ChangeSet line per object)', () => {
    const { release: r, events } = expand(release('enabled'));
    expect(events).toEqual([
      detected,
      'Normal DriftCorrected: Cluster state of release shop/web.v4 has been corrected:\nDeployment/shop/web configured\nConfigMap/shop/cfg created',
    ]);
    expect(r.status.conditions[0]).toMatchObject({
      type: 'Ready',
      status: 'True',
    });
  });

  it("enabled, the correction failing: DriftCorrectionFailed, and Ready=Unknown Progressing / Reconciling=True ProgressingWithRetry 'correcting cluster drift'", () => {
    const { release: r, events } = expand(
      release('enabled', { 'simulator.gitlab-env/drift-correction': 'failed' }),
    );
    expect(events[0]).toBe(detected);
    expect(events[1]).toMatch(
      /^Warning DriftCorrectionFailed: Failed to correct cluster state of release shop\/web\.v4:\nDeployment\/shop\/web dry-run failed/,
    );
    expect(
      r.status.conditions.map(
        (c: any) => `${c.type}=${c.status} ${c.reason}: ${c.message ?? ''}`,
      ),
    ).toEqual([
      'Reconciling=True ProgressingWithRetry: correcting cluster drift',
      'Ready=Unknown Progressing: correcting cluster drift',
      'Released=True UpgradeSucceeded: ',
    ]);
  });
});
