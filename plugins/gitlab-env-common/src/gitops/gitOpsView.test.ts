import { buildResourceGraph } from '../graph';
import { KubernetesObject } from '../types';
import { environmentDrift } from './environmentDrift';
import { buildGitOpsView } from './gitOpsView';
import { diffDesiredLive } from './fieldDiff';
import { planKustomization } from './desiredState';

const ks = (overrides: Record<string, any> = {}): KubernetesObject => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'shop', namespace: 'flux-system', uid: 'ks-1' },
  spec: {
    sourceRef: { kind: 'GitRepository', name: 'shop' },
    ...overrides.spec,
  },
  status: {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'ReconciliationSucceeded',
        message: 'Applied revision: main@sha1:aaa',
      },
    ],
    lastAppliedRevision: 'main@sha1:aaa',
    inventory: {
      entries: [
        { id: '_shop__Namespace', v: 'v1' },
        { id: '_shop-reader_rbac.authorization.k8s.io_ClusterRole', v: 'v1' },
        { id: 'shop_web_apps_Deployment', v: 'v1' },
        { id: 'shared_cache__Service', v: 'v1' },
        { id: 'shop_gone__ConfigMap', v: 'v1' },
      ],
    },
    ...overrides.status,
  },
});

const gitRepository = (revision: string): KubernetesObject => ({
  apiVersion: 'source.toolkit.fluxcd.io/v1',
  kind: 'GitRepository',
  metadata: { name: 'shop', namespace: 'flux-system' },
  spec: { url: 'https://gitlab.example.com/shop/deploy.git' },
  status: {
    conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded' }],
    artifact: { revision },
  },
});

const inventoryObjects: KubernetesObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'shop-reader' },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', uid: 'web-1' },
    spec: { replicas: 2 },
    status: {
      replicas: 2,
      readyReplicas: 2,
      updatedReplicas: 2,
      availableReplicas: 2,
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'cache', namespace: 'shared' },
    spec: {},
  },
];

function view(objects: KubernetesObject[], namespaces = ['shop']) {
  const graph = buildResourceGraph(objects);
  return {
    graph,
    view: buildGitOpsView(
      objects,
      graph,
      namespaces,
      environmentDrift(objects, graph),
    ),
  };
}

describe('buildGitOpsView: a Flux environment, whole', () => {
  it('reads cluster-scoped and cross-namespace inventory entries; only the absent one is Missing', () => {
    const { graph } = view([
      ks(),
      gitRepository('main@sha1:aaa'),
      ...inventoryObjects,
    ]);
    const missing = graph.nodes.filter(n => n.missing).map(n => n.id);
    expect(missing).toEqual(['/ConfigMap/shop/gone']);
    const managed = graph.edges
      .filter(e => e.type === 'manages')
      .map(e => e.target)
      .sort();
    expect(managed).toEqual([
      '/ConfigMap/shop/gone',
      '/Namespace//shop',
      '/Service/shared/cache',
      'apps/Deployment/shop/web',
      'rbac.authorization.k8s.io/ClusterRole//shop-reader',
    ]);
  });

  it('links the Kustomization to its GitRepository with both revisions, equal', () => {
    const { graph, view: v } = view([
      ks(),
      gitRepository('main@sha1:aaa'),
      ...inventoryObjects,
    ]);
    expect(graph.edges).toContainEqual({
      source: 'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/shop',
      target: 'source.toolkit.fluxcd.io/GitRepository/flux-system/shop',
      type: 'sources',
    });
    const flux = v.fluxObjects.find(f => f.nodeId.includes('Kustomization'))!;
    expect(flux.source).toMatchObject({
      found: true,
      revision: 'main@sha1:aaa',
      appliedRevision: 'main@sha1:aaa',
      differs: false,
    });
    expect(flux.sync).toMatchObject({
      status: 'ready',
      lastAppliedRevision: 'main@sha1:aaa',
    });
  });

  it('says when the source holds a revision not applied yet', () => {
    const { view: v } = view([ks(), gitRepository('main@sha1:bbb')]);
    const flux = v.fluxObjects.find(f => f.nodeId.includes('Kustomization'))!;
    expect(flux.source).toMatchObject({
      revision: 'main@sha1:bbb',
      differs: true,
    });
  });

  it('follows a HelmRelease through its HelmChart to the HelmRepository, comparing chart versions without digests', () => {
    const release: KubernetesObject = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'redis', namespace: 'shop' },
      spec: {
        chart: {
          spec: {
            chart: 'redis',
            sourceRef: {
              kind: 'HelmRepository',
              name: 'bitnami',
              namespace: 'flux-system',
            },
          },
        },
      },
      status: {
        history: [
          {
            name: 'redis',
            namespace: 'shop',
            version: 3,
            status: 'deployed',
            chartName: 'redis',
            chartVersion: '19.0.1',
            firstDeployed: '2026-11-20T10:00:00Z',
            lastDeployed: '2026-11-20T10:00:42Z',
          },
        ],
        conditions: [
          { type: 'Ready', status: 'True', reason: 'UpgradeSucceeded' },
        ],
      },
    };
    const chart: KubernetesObject = {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmChart',
      metadata: { name: 'shop-redis', namespace: 'flux-system' },
      spec: {
        chart: 'redis',
        sourceRef: { kind: 'HelmRepository', name: 'bitnami' },
      },
      status: { artifact: { revision: '19.0.2@sha256:abc' } },
    };
    const repository: KubernetesObject = {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmRepository',
      metadata: { name: 'bitnami', namespace: 'flux-system' },
      spec: {},
    };
    const { graph, view: v } = view([release, chart, repository]);
    const sourceEdges = graph.edges
      .filter(e => e.type === 'sources')
      .map(e => `${e.source} -> ${e.target}`);
    expect(sourceEdges).toEqual(
      expect.arrayContaining([
        'helm.toolkit.fluxcd.io/HelmRelease/shop/redis -> source.toolkit.fluxcd.io/HelmChart/flux-system/shop-redis',
        'source.toolkit.fluxcd.io/HelmChart/flux-system/shop-redis -> source.toolkit.fluxcd.io/HelmRepository/flux-system/bitnami',
      ]),
    );
    const flux = v.fluxObjects.find(f => f.nodeId.includes('HelmRelease'))!;
    expect(flux.source).toMatchObject({
      appliedRevision: '19.0.1',
      revision: '19.0.2@sha256:abc',
      differs: true,
    });
    expect(flux.history[0]).toMatchObject({
      revision: '19.0.1',
      outcome: 'succeeded',
      detail: 'deployed (v3)',
      duration: '42s',
      from: 'status.history',
    });
  });

  it('draws dependsOn between Flux objects, namespace defaulting to the dependent', () => {
    const infra = {
      ...ks(),
      metadata: { name: 'infra', namespace: 'flux-system' },
    };
    const apps = ks({ spec: { dependsOn: [{ name: 'infra' }] } });
    const { graph, view: v } = view([infra, apps]);
    expect(graph.edges).toContainEqual({
      source: 'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/shop',
      target: 'kustomize.toolkit.fluxcd.io/Kustomization/flux-system/infra',
      type: 'dependsOn',
    });
    expect(
      v.fluxObjects.find(f => f.nodeId.endsWith('/shop'))!.dependsOnIds,
    ).toEqual(['kustomize.toolkit.fluxcd.io/Kustomization/flux-system/infra']);
  });

  it('shows objects of the namespace no inventory names apart, not what Kubernetes makes', () => {
    const { view: v } = view([
      ks(),
      ...inventoryObjects,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'hand-made', namespace: 'shop' },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-root-ca.crt', namespace: 'shop' },
      },
      {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'default', namespace: 'shop' },
      },
      // A claim the StatefulSet controller made from a template (no
      // ownerReference with the default Retain policy), beside one made by hand.
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: 'shop' },
        spec: { volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
      },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data-db-0', namespace: 'shop' },
      },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'scratch', namespace: 'shop' },
      },
    ]);
    expect(v.unmanagedIds).toEqual([
      '/ConfigMap/shop/hand-made',
      '/PersistentVolumeClaim/shop/scratch',
      'apps/StatefulSet/shop/db',
    ]);
  });

  it('recognises what a Flux Operator ResourceSet applied', () => {
    const resourceSet: KubernetesObject = {
      apiVersion: 'fluxcd.controlplane.io/v1',
      kind: 'ResourceSet',
      metadata: { name: 'tenants', namespace: 'flux-system' },
      status: {
        inventory: {
          entries: [{ id: 'shop_tenant-a__ServiceAccount', v: 'v1' }],
        },
      },
    };
    const { view: v } = view([
      resourceSet,
      {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'tenant-a', namespace: 'shop' },
      },
    ]);
    expect(v.resourceSetManagedIds).toEqual(['/ServiceAccount/shop/tenant-a']);
    expect(v.unmanagedIds).toEqual([]);
    expect(v.inventories).toEqual([
      {
        inventoryId: 'fluxcd.controlplane.io/ResourceSet/flux-system/tenants',
        source: 'flux',
        memberIds: ['/ServiceAccount/shop/tenant-a'],
      },
    ]);
  });

  it('calls nothing unmanaged in an environment no GitOps tool manages', () => {
    const { view: v } = view([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'by-ci', namespace: 'shop' },
      },
    ]);
    expect(v.unmanagedIds).toEqual([]);
  });

  it("recognises a ResourceSet's objects by its labels when the ResourceSet itself was not read", () => {
    const { view: v } = view([
      ks(),
      {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: {
          name: 'ci',
          namespace: 'shop',
          labels: {
            'resourceset.fluxcd.controlplane.io/name': 'tenants',
            'resourceset.fluxcd.controlplane.io/namespace': 'flux-system',
          },
        },
      },
    ]);
    expect(v.resourceSetManagedIds).toEqual(['/ServiceAccount/shop/ci']);
    expect(v.unmanagedIds).toEqual([]);
  });

  it('groups objects by the cli-utils owning-inventory annotation', () => {
    const { view: v } = view([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'inventory',
          namespace: 'shop',
          labels: { 'cli-utils.sigs.k8s.io/inventory-id': 'inv-1' },
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 'web',
          namespace: 'shop',
          annotations: { 'config.k8s.io/owning-inventory': 'inv-1' },
        },
      },
    ]);
    expect(v.inventories).toEqual([
      {
        inventoryId: '/ConfigMap/shop/inventory',
        source: 'cli-utils',
        memberIds: ['/Service/shop/web'],
      },
    ]);
  });
});

describe('buildGitOpsView: drift, from each signal', () => {
  const web = (
    metadata: Record<string, any>,
    spec: Record<string, any> = { replicas: 5 },
  ): KubernetesObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', ...metadata },
    spec,
  });

  it('managedFields: a field owned by kubectl-edit, not by the Flux controller', () => {
    const { view: v } = view([
      ks(),
      web({
        managedFields: [
          {
            manager: 'kustomize-controller',
            operation: 'Apply',
            time: '2026-11-20T10:00:00Z',
            fieldsV1: { 'f:spec': { 'f:template': {} } },
          },
          {
            manager: 'kube-controller-manager',
            operation: 'Update',
            time: '2026-11-20T10:00:01Z',
            fieldsV1: {
              'f:metadata': {
                'f:annotations': { 'f:deployment.kubernetes.io/revision': {} },
              },
            },
          },
          {
            manager: 'kube-controller-manager',
            operation: 'Update',
            subresource: 'status',
            fieldsV1: { 'f:status': { 'f:replicas': {} } },
          },
          {
            manager: 'kubectl-edit',
            operation: 'Update',
            time: '2026-11-21T09:30:00Z',
            fieldsV1: { 'f:spec': { 'f:replicas': {} } },
          },
        ],
      }),
    ]);
    const drift = v.drift['apps/Deployment/shop/web'];
    expect(drift.signals).toEqual([
      {
        signal: 'managedFields',
        detail: '1 field(s) owned by kubectl-edit (Update)',
        time: '2026-11-21T09:30:00Z',
      },
    ]);
    expect(drift.changes).toEqual([
      {
        path: 'spec.replicas',
        change: 'changed',
        live: 5,
        by: 'kubectl-edit',
        at: '2026-11-21T09:30:00Z',
      },
    ]);
  });

  it('last-applied-configuration: changed and removed fields', () => {
    const applied = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', labels: { tier: 'front' } },
      spec: { replicas: 2, paused: false },
    };
    const { view: v } = view([
      ks(),
      web({
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration':
            JSON.stringify(applied),
        },
      }),
    ]);
    expect(v.drift['apps/Deployment/shop/web'].changes).toEqual([
      {
        path: 'metadata.labels',
        change: 'removed',
        desired: { tier: 'front' },
      },
      { path: 'spec.replicas', change: 'changed', desired: 2, live: 5 },
      { path: 'spec.paused', change: 'removed', desired: false },
    ]);
  });

  it("Flux's drift detection event names the object", () => {
    const release: KubernetesObject = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'web', namespace: 'shop' },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    const managed = web({
      labels: {
        'helm.toolkit.fluxcd.io/name': 'web',
        'helm.toolkit.fluxcd.io/namespace': 'shop',
      },
    });
    const event: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.1', namespace: 'shop' },
      involvedObject: { kind: 'HelmRelease', name: 'web', namespace: 'shop' },
      type: 'Warning',
      reason: 'DriftDetected',
      lastTimestamp: '2026-11-21T09:31:00Z',
      message:
        'Cluster state of release shop/web.v3 has drifted from the desired state:\nDeployment/shop/web changed (0 additions, 1 changes, 0 removals)',
    };
    const { view: v } = view([release, managed, event]);
    expect(v.drift['apps/Deployment/shop/web'].signals).toEqual([
      {
        signal: 'fluxEvent',
        detail: 'changed (0 additions, 1 changes, 0 removals)',
        time: '2026-11-21T09:31:00Z',
      },
    ]);
  });

  const helmRelease = (conditions: object[] = []): KubernetesObject => ({
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { driftDetection: { mode: 'enabled' } },
    status: {
      conditions: [
        { type: 'Released', status: 'True', reason: 'UpgradeSucceeded' },
        ...conditions,
      ],
    },
  });
  const releaseEvent = (
    name: string,
    reason: string,
    message: string,
    lastTimestamp: string,
  ): KubernetesObject => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'shop' },
    involvedObject: { kind: 'HelmRelease', name: 'web', namespace: 'shop' },
    type: reason === 'DriftCorrected' ? 'Normal' : 'Warning',
    reason,
    lastTimestamp,
    message,
  });
  const helmManaged = () =>
    web({
      labels: {
        'helm.toolkit.fluxcd.io/name': 'web',
        'helm.toolkit.fluxcd.io/namespace': 'shop',
      },
    });
  const detected = releaseEvent(
    'web.detected',
    'DriftDetected',
    'Cluster state of release shop/web.v3 has drifted from the desired state:\nDeployment/shop/web changed (0 additions, 1 changes, 0 removals)',
    '2026-11-21T09:31:00Z',
  );

  it("Flux's drift condition (helm-controller correct_cluster_drift.go: Ready=Unknown Progressing 'correcting cluster drift') marks the release drifted", () => {
    const correcting = helmRelease([
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'Progressing',
        message: 'correcting cluster drift',
        lastTransitionTime: '2026-11-21T09:31:00Z',
      },
      {
        type: 'Reconciling',
        status: 'True',
        reason: 'ProgressingWithRetry',
        message: 'correcting cluster drift',
      },
    ]);
    const { view: v } = view([correcting, helmManaged(), detected]);
    expect(v.drift['helm.toolkit.fluxcd.io/HelmRelease/shop/web']).toEqual({
      drifted: true,
      signals: [
        {
          signal: 'fluxCondition',
          detail:
            "helm-controller is correcting the release's drift (Ready=Unknown Progressing: correcting cluster drift)",
          time: '2026-11-21T09:31:00Z',
        },
      ],
      changes: [],
    });
    // The object the drift event names is drifted too: the correction failed.
    expect(v.drift['apps/Deployment/shop/web'].signals[0].signal).toBe(
      'fluxEvent',
    );
    // Ready=Unknown for another reason (an upgrade running) is no drift.
    const upgrading = helmRelease([
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'Progressing',
        message: "Running 'upgrade' action with timeout of 5m0s",
      },
    ]);
    expect(view([upgrading, helmManaged()]).view.drift).toEqual({});
  });

  it("an object helm-controller corrected since its drift event (DriftCorrected, mode 'enabled') is not drifted; a failed correction leaves it drifted", () => {
    const corrected = releaseEvent(
      'web.corrected',
      'DriftCorrected',
      'Cluster state of release shop/web.v3 has been corrected:\nDeployment/shop/web configured',
      '2026-11-21T09:31:00Z',
    );
    const release = helmRelease([
      { type: 'Ready', status: 'True', reason: 'UpgradeSucceeded' },
    ]);
    expect(
      view([release, helmManaged(), detected, corrected]).view.drift,
    ).toEqual({});
    const failed = releaseEvent(
      'web.failed',
      'DriftCorrectionFailed',
      'Failed to partially correct cluster state of release shop/web.v3:\nDeployment/shop/web dry-run failed: admission webhook denied the request\n\nSuccessful corrections:\nService/shop/web configured',
      '2026-11-21T09:31:00Z',
    );
    const { view: v } = view([release, helmManaged(), detected, failed]);
    expect(Object.keys(v.drift)).toEqual(['apps/Deployment/shop/web']);
    // Drift detected again after the correction: drifted again.
    const again = releaseEvent(
      'web.detected',
      'DriftDetected',
      detected.message as string,
      '2026-11-21T09:40:00Z',
    );
    expect(
      Object.keys(view([release, helmManaged(), corrected, again]).view.drift),
    ).toEqual(['apps/Deployment/shop/web']);
  });

  it('no signal, no drift; objects Flux does not manage are not checked', () => {
    const { view: v } = view([
      ks(),
      web({}),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'other',
          namespace: 'shop',
          managedFields: [
            {
              manager: 'kubectl-edit',
              operation: 'Update',
              fieldsV1: { 'f:data': { 'f:x': {} } },
            },
          ],
        },
      },
    ]);
    expect(v.drift).toEqual({});
  });
});

describe('buildGitOpsView: sync state and history', () => {
  it('suspended, with who and when from the managedFields entry owning spec.suspend', () => {
    const suspended = ks({ spec: { suspend: true } });
    suspended.metadata!.managedFields = [
      {
        manager: 'flux-client-side-apply',
        operation: 'Update',
        time: '2026-11-21T08:00:00Z',
        fieldsV1: { 'f:spec': { 'f:suspend': {} } },
      },
    ];
    const { view: v } = view([suspended]);
    expect(v.fluxObjects[0].sync).toMatchObject({
      status: 'suspended',
      suspendedBy: 'flux-client-side-apply',
      suspendedAt: '2026-11-21T08:00:00Z',
    });
  });

  it.each([
    [
      [
        {
          type: 'Ready',
          status: 'False',
          reason: 'BuildFailed',
          message: 'kustomize build failed',
        },
      ],
      'failed',
      'kustomize build failed',
    ],
    [
      [
        { type: 'Ready', status: 'False', reason: 'InvalidPath' },
        {
          type: 'Stalled',
          status: 'True',
          reason: 'InvalidPath',
          message: 'path not found',
        },
      ],
      'stalled',
      'path not found',
    ],
    [
      [
        {
          type: 'Ready',
          status: 'Unknown',
          reason: 'Progressing',
          message: 'Reconciliation in progress',
        },
      ],
      'reconciling',
      'Reconciliation in progress',
    ],
    [[], 'unknown', undefined],
  ])('conditions %j → %s', (conditions, status, message) => {
    const { view: v } = view([ks({ status: { conditions } })]);
    expect(v.fluxObjects[0].sync.status).toBe(status);
    expect(v.fluxObjects[0].sync.message).toBe(message);
  });

  it("reads a Kustomization's status.history (kustomize-controller docs, History)", () => {
    const { view: v } = view([
      ks({
        status: {
          history: [
            {
              digest: 'sha256:43ad',
              firstReconciled: '2025-08-15T10:11:00Z',
              lastReconciled: '2025-08-15T11:12:00Z',
              lastReconciledDuration: '2.818583s',
              lastReconciledStatus: 'ReconciliationSucceeded',
              totalReconciliations: 2,
              metadata: { revision: 'v1.0.1@sha1:4507' },
            },
            {
              digest: 'sha256:ec8d',
              firstReconciled: '2025-07-14T13:10:00Z',
              lastReconciled: '2025-08-15T10:00:00Z',
              lastReconciledDuration: '49.813292s',
              lastReconciledStatus: 'HealthCheckFailed',
              totalReconciliations: 120,
              metadata: { revision: 'v1.0.0@sha1:67e2' },
            },
          ],
        },
      }),
    ]);
    expect(v.fluxObjects[0].history).toEqual([
      {
        revision: 'v1.0.1@sha1:4507',
        time: '2025-08-15T11:12:00Z',
        outcome: 'succeeded',
        detail: 'ReconciliationSucceeded',
        duration: '2.818583s',
        count: 2,
        from: 'status.history',
      },
      {
        revision: 'v1.0.0@sha1:67e2',
        time: '2025-08-15T10:00:00Z',
        outcome: 'failed',
        detail: 'HealthCheckFailed',
        duration: '49.813292s',
        count: 120,
        from: 'status.history',
      },
    ]);
  });

  it('without status.history, builds the timeline from conditions and events, newest first', () => {
    const object = ks({
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ReconciliationSucceeded',
            lastTransitionTime: '2026-11-21T10:00:00Z',
          },
        ],
        lastAttemptedRevision: 'main@sha1:aaa',
      },
    });
    const event: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'shop.1', namespace: 'flux-system' },
      involvedObject: {
        kind: 'Kustomization',
        name: 'shop',
        namespace: 'flux-system',
        uid: 'ks-1',
      },
      type: 'Warning',
      reason: 'BuildFailed',
      message: 'kustomize build failed',
      lastTimestamp: '2026-11-21T09:00:00Z',
    };
    const { view: v } = view([object, event]);
    expect(v.fluxObjects[0].history).toEqual([
      {
        revision: 'main@sha1:aaa',
        time: '2026-11-21T10:00:00Z',
        outcome: 'succeeded',
        detail: 'Ready=True ReconciliationSucceeded',
        from: 'conditions',
      },
      {
        time: '2026-11-21T09:00:00Z',
        outcome: 'failed',
        detail: 'BuildFailed: kustomize build failed',
        count: 1,
        from: 'events',
      },
    ]);
  });
});

describe('diffDesiredLive and planKustomization (desired vs live)', () => {
  it('ignores fields the API server defaults, inside list items too', () => {
    expect(
      diffDesiredLive(
        { spec: { ports: [{ port: 443, targetPort: 'https' }] } },
        {
          spec: {
            ports: [{ port: 443, targetPort: 'https', protocol: 'TCP' }],
            clusterIP: '10.0.0.1',
          },
        },
      ),
    ).toEqual([]);
    expect(
      diffDesiredLive(
        { spec: { ports: [{ port: 443 }] } },
        { spec: { ports: [{ port: 8443 }] } },
      ),
    ).toEqual([
      {
        path: 'spec.ports[0].port',
        change: 'changed',
        desired: 443,
        live: 8443,
      },
    ]);
  });

  it('renders only plain resources, naming what needs kustomize', () => {
    expect(
      planKustomization(
        {
          resources: ['config.yaml', '../base', 'https://example.com/x.yaml'],
          configMapGenerator: [{}],
        },
        'deploy/production',
      ),
    ).toEqual({
      files: ['deploy/production/config.yaml'],
      notRendered: [
        'configMapGenerator (needs kustomize build)',
        'resource ../base (a directory, remote base or non-YAML file)',
        'resource https://example.com/x.yaml (a directory, remote base or non-YAML file)',
      ],
    });
    expect(
      planKustomization({ resources: ['../../../../etc/passwd.yaml'] }, 'a')
        .files,
    ).toEqual([]);
  });
});
