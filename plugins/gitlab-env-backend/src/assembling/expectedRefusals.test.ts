import { GitlabEnvError } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { markExpectedRefusals } from './expectedRefusals';

const forbidden = (resource: string): GitlabEnvError => ({
  code: 'KIND_FORBIDDEN',
  message: `${resource} is forbidden`,
  resource,
});

describe('markExpectedRefusals', () => {
  it('marks configured kinds, by Kind or group/Kind, as expected', () => {
    const marked = markExpectedRefusals(
      [
        forbidden('Secret'),
        forbidden('networking.k8s.io/Ingress'),
        forbidden('batch/Job'),
      ],
      ['Secret', 'networking.k8s.io/Ingress'],
    );
    expect(marked.map(e => [e.resource, !!e.expected])).toEqual([
      ['Secret', true],
      ['networking.k8s.io/Ingress', true],
      ['batch/Job', false],
    ]);
  });

  it('never marks Pods, Deployments or the environment’s Flux object, whatever the configuration', () => {
    const marked = markExpectedRefusals(
      [
        forbidden('Pod'),
        forbidden('apps/Deployment'),
        forbidden('kustomize.toolkit.fluxcd.io/Kustomization'),
      ],
      ['Pod', 'Deployment', 'Kustomization'],
      'kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app',
    );
    expect(marked.some(e => e.expected)).toBe(false);
  });

  it('leaves other failures alone', () => {
    const timeout: GitlabEnvError = {
      code: 'UPSTREAM_TIMEOUT',
      message: 'slow',
      resource: 'Secret',
    };
    expect(markExpectedRefusals([timeout], ['Secret'])).toEqual([timeout]);
  });
});
