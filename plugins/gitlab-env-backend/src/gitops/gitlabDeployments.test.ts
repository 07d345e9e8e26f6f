import { namespaceFromGitlabDeployments } from './gitlabDeployments';

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
    });
  });
});
