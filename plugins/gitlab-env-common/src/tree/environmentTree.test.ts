import { environmentDrift, NO_DRIFT } from '../gitops';
import { EnvironmentDrift } from '../types';
import { helmManagedConfigMap } from '../gitops/testing/helmManaged';
import { buildResourceGraph, summarizeGraphHealth } from '../graph';
import { KubernetesObject } from '../types';
import { environmentObject } from './environmentObject';
import { environmentTree } from './environmentTree';
import { readOf } from './testing/readOf';

const release: KubernetesObject = {
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: { name: 'web', namespace: 'shop' },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
};
const EDITED = '/ConfigMap/shop/edited';
const CLEAN = '/ConfigMap/shop/clean';

/**
 * A read of a state whose objects alone would say `edited` drifted, while
 * the backend's owner of the drift said `clean` did (it saw an Event this
 * read no longer holds, say): only the owner's word may show.
 */
function read(drift: EnvironmentDrift = NO_DRIFT) {
  const resources = [
    release,
    helmManagedConfigMap('edited', 'kubectl-edit'),
    helmManagedConfigMap('clean', 'helm-controller'),
  ];
  const graph = buildResourceGraph(resources);
  return readOf(
    { resources, graph, health: summarizeGraphHealth(graph) },
    drift,
  );
}

const ownerSays: EnvironmentDrift = {
  [CLEAN]: {
    drifted: true,
    signals: [{ signal: 'fluxEvent', detail: 'ConfigMap/shop/clean changed' }],
    changes: [{ path: 'data.x', change: 'changed', by: 'kubectl-patch' }],
  },
};

describe('the polled tree and the drawer of a read', () => {
  it('(premise) would say from the objects alone that another object drifted than the owner said', () => {
    const objects = read().resources;
    expect(
      Object.keys(environmentDrift(objects, buildResourceGraph(objects))),
    ).toEqual([EDITED]);
  });

  it('mark drifted the nodes the read’s drift names, and count them as the read does', () => {
    const tree = environmentTree(read(ownerSays));
    expect(tree.graph.nodes.filter(n => n.drifted).map(n => n.id)).toEqual([
      CLEAN,
    ]);
    expect(tree.environment.driftedCount).toBe(1);
  });

  it('mark nothing drifted when the read carries no drift (a backend older than the field)', () => {
    const tree = environmentTree(read());
    expect(tree.graph.nodes.some(n => n.drifted)).toBe(false);
    expect(tree.environment.driftedCount).toBeUndefined();
  });

  it("show in the drawer the owner's report of the node, and none where the owner saw none", () => {
    const state = read(ownerSays);
    expect(environmentObject(state, CLEAN)?.gitops.drift).toEqual(
      ownerSays[CLEAN],
    );
    expect(environmentObject(state, EDITED)?.gitops.drift).toBeUndefined();
    expect(environmentObject(read(), EDITED)?.gitops.drift).toBeUndefined();
  });
});
