import {
  mapNamespaces,
  namespaceFromGitlabDeployments,
  namespaceFromInventory,
} from './gitlabDeployments';

const deployment = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'gitlab.com/v1alpha1',
  kind: 'GitLabDeployment',
  metadata: { name },
  spec,
});

describe('namespaceFromGitlabDeployments (examples/gitlab-deployment/crd.yaml)', () => {
  it('maps by environment and project, the namespace defaulting to the object name', () => {
    const objects = [
      deployment('other-env', {
        environment: 'production',
        projects: ['acme/app'],
      }),
      deployment('app-staging', {
        environment: 'staging',
        projects: ['acme/app'],
      }),
    ];
    expect(
      namespaceFromGitlabDeployments(objects, 'acme/app', 'staging'),
    ).toEqual({
      name: 'app-staging',
      namespace: 'app-staging',
      serves: ['acme/app'],
    });
  });

  it('matches a group by path prefix, not by string prefix', () => {
    const objects = [
      deployment('shop', {
        environment: 'review/x',
        groups: ['acme/shop'],
        namespace: 'reviews',
      }),
    ];
    expect(
      namespaceFromGitlabDeployments(objects, 'acme/shop/cart', 'review/x')
        ?.namespace,
    ).toBe('reviews');
    expect(
      namespaceFromGitlabDeployments(objects, 'acme/shopping', 'review/x'),
    ).toBeUndefined();
  });

  it('never uses a namespace that is not a valid name, and picks the first by name among several', () => {
    const objects = [
      deployment('b', {
        environment: 'dev',
        projects: ['acme/app'],
        namespace: 'second',
      }),
      deployment('a', {
        environment: 'dev',
        projects: ['acme/app'],
        namespace: '../kube-system',
      }),
      deployment('c', {
        environment: 'dev',
        projects: ['acme/app'],
        namespace: 'third',
      }),
    ];
    expect(namespaceFromGitlabDeployments(objects, 'acme/app', 'dev')).toEqual({
      name: 'b',
      namespace: 'second',
      serves: ['acme/app'],
    });
  });
});

describe('namespace from a Flux inventory', () => {
  const flux = (spec: object, ids: string[]) => ({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'app', namespace: 'flux-system' },
    spec,
    status: { inventory: { entries: ids.map(id => ({ id, v: 'v1' })) } },
  });

  it('takes targetNamespace, else where most namespaced entries live', () => {
    expect(namespaceFromInventory(flux({ targetNamespace: 'shop' }, []))).toBe(
      'shop',
    );
    expect(
      namespaceFromInventory(
        flux({}, [
          '_shop__Namespace',
          'shop_a__ConfigMap',
          'shop_b__Service',
          'other_c__Service',
        ]),
      ),
    ).toBe('shop');
    expect(
      namespaceFromInventory(
        flux({ targetNamespace: '../x' }, ['_x__Namespace']),
      ),
    ).toBeUndefined();
  });

  it('maps an environment with a Flux object and no namespace, naming the Kustomization', async () => {
    const environments = await mapNamespaces(
      [
        {
          id: '1',
          name: 'staging',
          slug: 'staging',
          tier: 'staging',
          state: 'available',
          agent: { id: '3', name: 'nonprod' },
          fluxResourcePath:
            'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app',
        },
      ],
      'acme/app',
      async () => [],
      async () => flux({}, ['shop_a__ConfigMap']),
    );
    expect(environments[0].namespace).toBe('shop');
    expect(environments[0].namespaceSource).toMatchObject({
      source: 'inventory',
      name: 'Kustomization/flux-system/app',
    });
  });
});

describe('mapNamespaces and refused settings', () => {
  it('reads nothing for an environment whose namespace GitLab gave was refused', async () => {
    const deploymentsOf = jest.fn(async () => []);
    const [environment] = await mapNamespaces(
      [
        {
          id: '1',
          name: 'staging',
          slug: 'staging',
          tier: 'staging',
          state: 'available',
          agent: { id: '3', name: 'nonprod' },
          errors: [
            { code: 'INVALID_ENVIRONMENT_SETTING', message: 'refused ..' },
          ],
        },
      ],
      'acme/app',
      deploymentsOf,
    );
    expect(deploymentsOf).not.toHaveBeenCalled();
    expect(environment.namespace).toBeUndefined();
  });
});
