import { describeResource } from './describeResource';
import { resourceEvents } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { kubectlCommands } from './kubectl';
import { shopResources } from '../__testUtils__/fixtures';

const now = Date.parse('2026-01-02T00:00:00Z');

describe('describeResource', () => {
  it('speaks kubectl for workloads, pods and services', () => {
    expect(
      describeResource(
        {
          kind: 'Deployment',
          spec: { replicas: 3 },
          status: { readyReplicas: 2 },
          metadata: { creationTimestamp: '2026-01-01T21:00:00Z' },
        },
        now,
      ),
    ).toEqual(['2/3 ready', '3h']);
    expect(
      describeResource(
        {
          kind: 'Pod',
          status: {
            phase: 'Running',
            containerStatuses: [
              { ready: true, restartCount: 1 },
              { ready: false, restartCount: 0 },
            ],
          },
        },
        now,
      ),
    ).toEqual(['Running', '1/2 ready', '1 restart']);
    expect(
      describeResource(
        {
          kind: 'Service',
          spec: { type: 'LoadBalancer', ports: [{ port: 443 }] },
        },
        now,
      ),
    ).toEqual(['LoadBalancer', '443/TCP']);
  });

  it('survives objects of the wrong shape', () => {
    expect(
      describeResource(
        { kind: 'Pod', status: { containerStatuses: 'x' } },
        now,
      ),
    ).toEqual(['Pending']);
    expect(describeResource(undefined, now)).toEqual(['not in cluster']);
  });
});

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
