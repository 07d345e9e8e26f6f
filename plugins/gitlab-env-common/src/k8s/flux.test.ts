import { parseFluxInventoryId, parseFluxResourcePath } from './flux';

describe('parseFluxInventoryId', () => {
  it.each([
    [
      'shop_web_apps_Deployment',
      { namespace: 'shop', name: 'web', group: 'apps', kind: 'Deployment' },
    ],
    [
      'shop_web__Service',
      { namespace: 'shop', name: 'web', group: '', kind: 'Service' },
    ],
    [
      '_shop__Namespace',
      { namespace: '', name: 'shop', group: '', kind: 'Namespace' },
    ],
    [
      '_system__aggregate-to-edit_rbac.authorization.k8s.io_ClusterRole',
      {
        namespace: '',
        name: 'system:aggregate-to-edit',
        group: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
      },
    ],
    [
      'shop_my_config__ConfigMap',
      { namespace: 'shop', name: 'my_config', group: '', kind: 'ConfigMap' },
    ],
  ])('%s', (id, expected) => {
    expect(parseFluxInventoryId(id)).toEqual(expected);
  });
  it('rejects ids it cannot read', () => {
    expect(parseFluxInventoryId('Deployment')).toBeUndefined();
    expect(parseFluxInventoryId('a_b')).toBeUndefined();
  });
});

describe('parseFluxResourcePath', () => {
  it('reads GitLab environment paths', () => {
    expect(
      parseFluxResourcePath(
        'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout-api',
      ),
    ).toEqual({
      group: 'kustomize.toolkit.fluxcd.io',
      version: 'v1',
      namespace: 'flux-system',
      plural: 'kustomizations',
      name: 'checkout-api',
      kind: 'Kustomization',
    });
    expect(
      parseFluxResourcePath(
        'helm.toolkit.fluxcd.io/v2/namespaces/flux-system/helmreleases/web',
      )?.kind,
    ).toBe('HelmRelease');
    expect(parseFluxResourcePath('HelmRelease/flux-system')).toBeUndefined();
  });
});
