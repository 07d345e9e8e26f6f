import { resourceEvents } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { kubectlCommands } from './kubectl';
import { shopResources } from '../__testUtils__/fixtures';

describe('resourceEvents on the fixture the drawer shows', () => {
  it('finds the events of one object by uid', () => {
    const shop = shopResources();
    const pod = shop.graph.nodes.find(n => n.name === 'api-7c9b-3')!;
    expect(resourceEvents(pod, shop.resources)).toEqual([
      expect.objectContaining({
        type: 'Warning',
        reason: 'BackOff',
        count: 12,
      }),
    ]);
    const other = shop.graph.nodes.find(n => n.name === 'api-7c9b-2')!;
    expect(resourceEvents(other, shop.resources)).toEqual([]);
  });
});

describe('kubectlCommands', () => {
  it('qualifies custom resources by group and quotes unusual names', () => {
    expect(
      kubectlCommands({
        group: 'kustomize.toolkit.fluxcd.io',
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'apps',
      }).get,
    ).toBe(
      'kubectl get kustomization.kustomize.toolkit.fluxcd.io apps -n flux-system -o yaml',
    );
    expect(
      kubectlCommands({
        group: 'apps',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'web',
      }).describe,
    ).toBe('kubectl describe deployment web -n shop');
    expect(
      kubectlCommands({
        group: '',
        kind: 'Namespace',
        namespace: '',
        name: "it's",
      }).get,
    ).toBe(`kubectl get namespace 'it'\\''s' -o yaml`);
  });
});
