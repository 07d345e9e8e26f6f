import {
  buildGitOpsView,
  buildResourceGraph,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { driftedCount } from './driftedCount';

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
const managed = (name: string, manager: string): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace: 'shop',
    labels: {
      'helm.toolkit.fluxcd.io/name': 'web',
      'helm.toolkit.fluxcd.io/namespace': 'shop',
    },
    managedFields: [
      { manager, operation: 'Update', fieldsV1: { 'f:data': { 'f:x': {} } } },
    ],
  },
});

describe('driftedCount', () => {
  it("counts what the GitOps view calls drifted, once per read's graph", () => {
    const objects = [
      release,
      managed('edited', 'kubectl-edit'),
      managed('clean', 'helm-controller'),
    ];
    const graph = buildResourceGraph(objects);
    const view = buildGitOpsView(objects, graph, ['shop']);
    expect(Object.keys(view.drift).sort()).toEqual([
      '/ConfigMap/shop/edited',
      'helm.toolkit.fluxcd.io/HelmRelease/shop/web',
    ]);
    expect(driftedCount(objects, graph)).toBe(2);
    // The same read again: the count is not computed again.
    expect(driftedCount([], graph)).toBe(2);
    expect(driftedCount([], buildResourceGraph([]))).toBe(0);
  });
});
