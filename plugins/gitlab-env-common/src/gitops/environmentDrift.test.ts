import { buildResourceGraph } from '../graph';
import { KubernetesObject } from '../types';
import { buildGitOpsView } from './gitOpsView';
import { helmManagedConfigMap } from './testing/helmManaged';
import { driftedCount, environmentDrift, NO_DRIFT } from './environmentDrift';

const release: KubernetesObject = {
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: { name: 'web', namespace: 'shop' },
  status: {
    conditions: [
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'Progressing',
        message: 'correcting cluster drift',
      },
    ],
  },
};

describe('environmentDrift and driftedCount', () => {
  it("count what the GitOps view calls drifted, and the view shows its owner's drift without computing it again", () => {
    const objects = [
      release,
      helmManagedConfigMap('edited', 'kubectl-edit'),
      helmManagedConfigMap('clean', 'helm-controller'),
    ];
    const graph = buildResourceGraph(objects);
    const drift = environmentDrift(objects, graph);
    expect(Object.keys(drift).sort()).toEqual([
      '/ConfigMap/shop/edited',
      'helm.toolkit.fluxcd.io/HelmRelease/shop/web',
    ]);
    expect(driftedCount(drift)).toBe(2);
    // The view shows the state's drift it is given (the same value, not a second count).
    expect(buildGitOpsView(objects, graph, ['shop'], drift).drift).toBe(drift);
    expect(driftedCount(environmentDrift([], buildResourceGraph([])))).toBe(0);
    expect(driftedCount(NO_DRIFT)).toBe(0);
  });
});
