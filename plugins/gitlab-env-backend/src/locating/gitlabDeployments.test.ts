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
      { fullPath: 'acme/app' },
      {
        deploymentsOf: async () => [],
        fluxObjectOf: async () => flux({}, ['shop_a__ConfigMap']),
      },
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
      { fullPath: 'acme/app' },
      { deploymentsOf },
    );
    expect(deploymentsOf).not.toHaveBeenCalled();
    expect(environment.namespace).toBeUndefined();
  });
});

describe('mapNamespaces: GitLab, GitLabDeployment, label, inventory, in this order', () => {
  const environment = (name: string, extra: object = {}) => ({
    id: name,
    name,
    slug: name,
    tier: 'testing' as const,
    state: 'available' as const,
    agent: { id: '3', name: 'nonprod' },
    ...extra,
  });
  const workload = (namespace: string, name: string, env: string) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      annotations: {
        'app.gitlab.com/app': 'acme-app',
        'app.gitlab.com/env': env,
      },
    },
  });

  it('takes the namespace most of the annotated workloads live in, and narrows the namespace it shares', async () => {
    const workloadsOf = jest.fn(async () => ({
      objects: [
        workload('a', 'one', 'load'),
        workload('b', 'two', 'load'),
        workload('b', 'three', 'load'),
        workload('c', 'other', 'prod'),
      ],
      failures: [],
    }));
    const [mapped, declared] = await mapNamespaces(
      [environment('load'), environment('qa', { namespace: 'b' })],
      { fullPath: 'acme/app', id: '7' },
      {
        deploymentsOf: async () => [],
        workloadsOf,
        fluxObjectOf: async () => {
          throw new Error('the inventory comes after the labels');
        },
      },
    );
    expect(workloadsOf).toHaveBeenCalledTimes(1);
    expect(workloadsOf).toHaveBeenCalledWith('3', ['b']);
    expect(mapped.namespace).toBe('b');
    expect(mapped.namespaceSource).toMatchObject({
      source: 'label',
      name: 'Deployment/three and 1 more',
      narrowing: {
        by: 'label',
        sharedWith: ['environment qa'],
        markers: {
          app: 'acme-app',
          env: 'load',
          managedLabel: 'agent.gitlab.com/env-load-7-3',
        },
      },
    });
    expect(declared.namespaceSource).toMatchObject({
      source: 'gitlab',
      narrowing: { by: 'label', sharedWith: ['environment load'] },
    });
  });

  it('prefers a GitLabDeployment to the labels, and leaves alone a namespace nobody shares', async () => {
    const workloadsOf = jest.fn();
    const [mapped] = await mapNamespaces(
      [environment('load')],
      { fullPath: 'acme/app' },
      {
        deploymentsOf: async () => [
          deployment('load', { environment: 'load', projects: ['acme/app'] }),
        ],
        workloadsOf,
      },
    );
    expect(workloadsOf).not.toHaveBeenCalled();
    expect(mapped.namespaceSource?.source).toBe('gitlabDeployment');
    expect(mapped.namespaceSource?.narrowing).toBeUndefined();
  });

  it('says why the labels could not be looked for when nothing gave a namespace', async () => {
    const [mapped] = await mapNamespaces(
      [environment('load')],
      { fullPath: 'acme/app' },
      {
        deploymentsOf: async () => [],
        workloadsOf: async () => ({
          objects: [],
          failures: ['listing apps/Deployment across the cluster is forbidden'],
        }),
      },
    );
    expect(mapped.namespace).toBeUndefined();
    expect(mapped.namespaceLookup).toBe(
      'Its GitLab annotations could not be looked for everywhere: listing apps/Deployment across the cluster is forbidden.',
    );
  });
});
