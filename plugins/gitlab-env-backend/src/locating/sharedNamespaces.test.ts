import { gitlabEnvironment as environment } from '../__testUtils__/environments';
import { markSharedNamespaces } from './sharedNamespaces';

const project = { fullPath: 'acme/shop/cart', id: '12' };

describe('markSharedNamespaces', () => {
  it('leaves a namespace GitLab dedicates to one environment alone', () => {
    const [only] = markSharedNamespaces([environment('a')], project);
    expect(only.namespaceSource?.narrowing).toBeUndefined();
  });

  it('narrows environments of the project on one agent and namespace; a stopped one or another agent does not count', () => {
    const [a, b, stopped, elsewhere] = markSharedNamespaces(
      [
        environment('a', {
          fluxResourcePath:
            'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/a',
        }),
        environment('b'),
        environment('old', { state: 'stopped' }),
        environment('c', { agent: { id: '4', name: 'other' } }),
      ],
      project,
    );
    expect(a.namespaceSource?.narrowing).toEqual({
      by: 'inventory',
      sharedWith: ['environment b'],
      flux: { kind: 'Kustomization', namespace: 'flux-system', name: 'a' },
      markers: {
        app: 'acme-shop-cart',
        env: 'a',
        managedLabel: 'agent.gitlab.com/env-a-12-3',
      },
      kubectl:
        "kubectl get kustomizations.kustomize.toolkit.fluxcd.io a -n flux-system -o jsonpath='{.status.inventory.entries[*].id}'",
    });
    expect(b.namespaceSource?.narrowing).toMatchObject({
      by: 'label',
      sharedWith: ['environment a'],
    });
    expect(stopped.namespaceSource?.narrowing).toBeUndefined();
    expect(elsewhere.namespaceSource?.narrowing).toBeUndefined();
  });

  it('narrows a namespace its GitLabDeployment serves to other projects too', () => {
    const [reviews] = markSharedNamespaces(
      [
        environment('review/shared', {
          namespaceSource: {
            source: 'gitlabDeployment',
            name: 'shop-reviews',
            serves: ['acme/shop/*'],
          },
        }),
      ],
      project,
    );
    expect(reviews.namespaceSource?.narrowing).toMatchObject({
      by: 'label',
      sharedWith: ['acme/shop/*'],
    });
  });
});
