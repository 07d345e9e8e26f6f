import { GitlabProjectRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { gitlabEnvironment } from '../__testUtils__/environments';
import { actionScopeOf } from './ownership';

const project: GitlabProjectRef = {
  instance: 'gitlab.example.com',
  fullPath: 'acme/shop/checkout-api',
  id: '102',
  webUrl: 'https://gitlab.example.com/acme/shop/checkout-api',
};
const located = { host: 'gitlab.example.com', project };
const environment = (extra: Parameters<typeof gitlabEnvironment>[1]) =>
  gitlabEnvironment('production', { namespace: 'checkout', ...extra });
const platformNamespaces = ['kube-*', 'gitlab-agent'];

describe('actionScopeOf', () => {
  it('gives an owned namespace, the project and its repository, fields in the order they are sent', () => {
    const scope = actionScopeOf(environment({}), located, {
      platformNamespaces,
    });
    expect(scope).toEqual({
      namespace: 'checkout',
      platformNamespaces,
      projectPathSlug: 'acme-shop-checkout-api',
      projectId: '102',
      repositories: ['acme/shop/checkout-api'],
    });
    expect(Object.keys(scope)).toEqual([
      'namespace',
      'platformNamespaces',
      'projectPathSlug',
      'projectId',
      'repositories',
    ]);
  });

  it('names the Flux root, the refusal of a platform namespace and the entity’s own refusal', () => {
    const entityRefusal = {
      code: 'NOT_OWNED' as const,
      message: 'The entity’s claim is not verified.',
    };
    const scope = actionScopeOf(
      environment({
        namespace: 'kube-system',
        fluxResourcePath:
          'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/checkout',
      }),
      { ...located, project: { ...project, id: 'gid://x' } },
      { platformNamespaces, entityRefusal },
    );
    expect(Object.keys(scope)).toEqual([
      'namespaceRefusal',
      'root',
      'platformNamespaces',
      'projectPathSlug',
      'entityRefusal',
      'repositories',
    ]);
    expect(scope.namespaceRefusal?.message).toMatch(
      /names namespace kube-system, where the agent or the cluster's platform runs/,
    );
    expect(scope.root).toEqual({
      group: 'kustomize.toolkit.fluxcd.io',
      kind: 'Kustomization',
      namespace: 'flux-system',
      name: 'checkout',
    });
    expect(scope.entityRefusal).toBe(entityRefusal);
    expect(scope.repositories).toEqual([]);
  });

  it('adds the projects a GitLabDeployment names, not its group patterns', () => {
    const scope = actionScopeOf(
      environment({
        namespaceSource: {
          source: 'gitlabDeployment',
          name: 'checkout',
          kubectl: 'kubectl get gitlabdeployment checkout',
          serves: ['acme/shop/checkout-api', 'acme/shop/checkout-ui', 'acme/*'],
        },
      }),
      located,
      { platformNamespaces },
    );
    expect(scope.repositories).toEqual([
      'acme/shop/checkout-api',
      'acme/shop/checkout-api',
      'acme/shop/checkout-ui',
    ]);
  });
});
