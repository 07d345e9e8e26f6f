import { ListableKind } from './discovery';
import { fluxRelatedRefs } from './fluxRelatedRefs';

const kind = (
  group: string,
  version: string,
  plural: string,
  k: string,
  clusterScoped = false,
): ListableKind => ({
  group,
  version,
  plural,
  kind: k,
  label: group ? `${group}/${k}` : k,
  basePath: group ? `/apis/${group}/${version}` : `/api/${version}`,
  ...(clusterScoped && { clusterScoped: true }),
});

const KINDS = [
  kind('', 'v1', 'configmaps', 'ConfigMap'),
  kind('', 'v1', 'namespaces', 'Namespace', true),
  kind('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', true),
  kind('source.toolkit.fluxcd.io', 'v1', 'gitrepositories', 'GitRepository'),
  kind('kustomize.toolkit.fluxcd.io', 'v1', 'kustomizations', 'Kustomization'),
];

const kustomization = (entries: string[]) => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'app', namespace: 'flux-system' },
  spec: {
    sourceRef: { kind: 'GitRepository', name: 'app' },
    dependsOn: [{ name: 'infra' }],
  },
  status: { inventory: { entries: entries.map(id => ({ id, v: 'v1' })) } },
});

describe('fluxRelatedRefs', () => {
  it('names inventory entries outside the namespace (cluster-scoped ones without a namespace), the source and dependencies', () => {
    const { refs, unreadable } = fluxRelatedRefs(
      kustomization([
        'shop_web__ConfigMap',
        'other_web__ConfigMap',
        '_shop__Namespace',
        '_reader_rbac.authorization.k8s.io_ClusterRole',
      ]),
      KINDS,
      'shop',
    );
    expect(
      refs.map(r => [r.label, r.namespace, r.name, !!r.clusterScoped]),
    ).toEqual([
      ['ConfigMap', 'other', 'web', false],
      ['Namespace', '', 'shop', true],
      ['rbac.authorization.k8s.io/ClusterRole', '', 'reader', true],
      ['source.toolkit.fluxcd.io/GitRepository', 'flux-system', 'app', false],
      [
        'kustomize.toolkit.fluxcd.io/Kustomization',
        'flux-system',
        'infra',
        false,
      ],
    ]);
    expect(unreadable).toBe(0);
  });

  it('reads nothing whose names break Kubernetes grammars or whose kind discovery does not know, nor a namespaced entry without a namespace', () => {
    const { refs, unreadable } = fluxRelatedRefs(
      kustomization([
        '..__ConfigMap',
        'Bad NS_web__ConfigMap',
        'x_y_example.com_Unknown',
        '_web__ConfigMap',
        'ns_a%2Fb__ConfigMap',
      ]),
      KINDS,
      'shop',
    );
    expect(refs.map(r => r.kind)).toEqual(['GitRepository', 'Kustomization']);
    expect(unreadable).toBe(4);
  });
});
