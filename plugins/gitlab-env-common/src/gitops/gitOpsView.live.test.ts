import fc from 'fast-check';
import { buildResourceGraph } from '../graph/buildResourceGraph';
import { LiveResourceGraph } from '../graph/LiveResourceGraph';
import {
  applyResourceGraphPatch,
  PatchableResources,
} from '../graph/applyResourceGraphPatch';
import { resourceId, resourceKeyOf } from '../k8s/resourceId';
import { KubernetesObject, WatchEvent } from '../types';
import { buildGitOpsView, GitOpsView } from './gitOpsView';
import { driftedCount, environmentDrift } from './environmentDrift';

const NAMESPACES = ['shop'];
const helmLabels = {
  'helm.toolkit.fluxcd.io/name': 'web',
  'helm.toolkit.fluxcd.io/namespace': 'flux-system',
};

const helmRelease = (ready: object): KubernetesObject => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: { name: 'web', namespace: 'flux-system', uid: 'hr' },
  spec: { driftDetection: { mode: 'enabled' } },
  status: { conditions: [{ type: 'Ready', ...ready }] },
});

const kustomization: KubernetesObject = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'shop', namespace: 'flux-system', uid: 'ks' },
  status: {
    conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded' }],
    inventory: { entries: [{ id: 'shop_cfg__ConfigMap', v: 'v1' }] },
  },
};

const deployment = (managedFields: object[]): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'web',
    labels: helmLabels,
    managedFields,
  },
  spec: { replicas: 3 },
});

const configMap = (annotations: Record<string, string>): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'shop', uid: 'cfg', annotations },
  data: { currency: 'EUR' },
});

const event = (
  name: string,
  involved: { kind: string; name: string },
  reason: string,
  message: string,
  lastTimestamp: string,
): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'flux-system', uid: `ev-${name}` },
  involvedObject: { ...involved, namespace: 'flux-system' },
  type:
    reason.startsWith('Drift') && reason !== 'DriftCorrected'
      ? 'Warning'
      : 'Normal',
  reason,
  message,
  lastTimestamp,
  count: 1,
});

const release = { kind: 'HelmRelease', name: 'web' };
const drifted =
  'Cluster state of release shop/web.v2 has drifted from the desired state:\nDeployment/shop/web changed (0 additions, 1 changes, 0 removals)';

/** Every shape the GitOps view reads, each in variants an update moves between. */
const POOL: KubernetesObject[] = [
  helmRelease({ status: 'True', reason: 'UpgradeSucceeded' }),
  helmRelease({
    status: 'Unknown',
    reason: 'Progressing',
    message: 'correcting cluster drift',
  }),
  kustomization,
  deployment([]),
  deployment([
    {
      manager: 'kubectl-edit',
      operation: 'Update',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    },
  ]),
  configMap({}),
  configMap({
    'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'shop' },
      data: { currency: 'USD' },
    }),
  }),
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'by-hand', namespace: 'shop', uid: 'by-hand' },
  },
  event('detected', release, 'DriftDetected', drifted, '2026-11-21T09:00:00Z'),
  event(
    'corrected',
    release,
    'DriftCorrected',
    'Cluster state of release shop/web.v2 has been corrected:\nDeployment/shop/web configured',
    '2026-11-21T09:01:00Z',
  ),
  event('detected', release, 'DriftDetected', drifted, '2026-11-21T09:02:00Z'),
  event(
    'upgraded',
    release,
    'UpgradeSucceeded',
    'Helm upgrade succeeded for release shop/web.v2',
    '2026-11-21T08:00:00Z',
  ),
  event(
    'applied',
    { kind: 'Kustomization', name: 'shop' },
    'ReconciliationSucceeded',
    'Reconciliation finished',
    '2026-11-21T08:30:00Z',
  ),
];

const watchEvent: fc.Arbitrary<WatchEvent> = fc.record({
  type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'),
  object: fc.constantFrom(...POOL),
});

const idOf = (object: KubernetesObject) => resourceId(resourceKeyOf(object)!);

/** The objects a read returns after the same changes: one per id, the last wins. */
function readObjects(initial: KubernetesObject[], events: WatchEvent[]) {
  const objects = new Map(initial.map(o => [idOf(o), o]));
  for (const { type, object } of events) {
    if (type === 'DELETED') objects.delete(idOf(object));
    else objects.set(idOf(object), object);
  }
  return [...objects.values()];
}

/** The view without the orders that follow arrival (objects kept in place, new ones last). */
function canonical(view: GitOpsView) {
  const byJson = <T>(items: T[]) =>
    [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return {
    ...view,
    fluxObjects: byJson(view.fluxObjects),
    unmanagedIds: [...view.unmanagedIds].sort(),
    inventories: byJson(view.inventories),
  };
}

function viewOf(page: PatchableResources) {
  return canonical(
    buildGitOpsView(
      page.resources,
      page.graph,
      NAMESPACES,
      environmentDrift(page.resources, page.graph),
    ),
  );
}

describe('buildGitOpsView on the live path', () => {
  it('has objects that raise every drift signal, history and unmanaged objects', () => {
    const objects = readObjects(
      [],
      POOL.map(object => ({ type: 'ADDED' as const, object })),
    );
    const graph = buildResourceGraph(objects);
    const view = buildGitOpsView(
      objects,
      graph,
      NAMESPACES,
      environmentDrift(objects, graph),
    );
    expect(
      new Set(
        Object.values(view.drift).flatMap(d => d.signals.map(s => s.signal)),
      ),
    ).toEqual(
      new Set(['fluxEvent', 'fluxCondition', 'managedFields', 'lastApplied']),
    );
    expect(view.fluxObjects.every(f => f.history.length > 0)).toBe(true);
    expect(view.unmanagedIds).toEqual(['/ConfigMap/shop/by-hand']);
  });

  it('agrees with a read: the page patched from live events shows the drift, history, sync and unmanaged objects a read of the same objects shows', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...POOL), { selector: idOf }),
        fc.array(fc.array(watchEvent, { minLength: 1, maxLength: 4 }), {
          maxLength: 10,
        }),
        (initial, batches) => {
          const live = new LiveResourceGraph(initial);
          let page: PatchableResources = {
            resources: live.objects(),
            graph: live.graph(),
            health: live.health(),
          };
          const applied: WatchEvent[] = [];
          for (const batch of batches) {
            page = applyResourceGraphPatch(page, live.apply(batch));
            applied.push(...batch);
            const objects = readObjects(initial, applied);
            const read = {
              resources: objects,
              graph: buildResourceGraph(objects),
            };
            expect(viewOf({ ...page })).toEqual(
              viewOf({ ...read, health: page.health }),
            );
            // The card's count is the view's.
            expect(
              driftedCount(environmentDrift(read.resources, read.graph)),
            ).toBe(
              Object.keys(viewOf({ ...read, health: page.health }).drift)
                .length,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
