import { KubernetesObject } from '../types';
import { environmentImages, promotionDiff } from './promotionDiff';
import { podTemplateDiff } from './templateDiff';
import { workloadManager } from './workloadManager';

const deployment = (
  namespace: string,
  image: string,
  replicas: number,
  labels: Record<string, string> = {},
): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace, labels },
  spec: {
    replicas,
    template: {
      spec: {
        containers: [
          { name: 'api', image },
          { name: 'proxy', image: 'envoy:1' },
        ],
      },
    },
  },
});
const configMap = (namespace: string, data: Record<string, string>) =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cfg', namespace },
    data,
  } as KubernetesObject);
const secret = (namespace: string, keys: string[]) =>
  ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'creds', namespace },
    data: Object.fromEntries(keys.map(k => [k, '<redacted>'])),
  } as KubernetesObject);

describe('promotionDiff', () => {
  it('compares workloads by kind and name across namespaces: images, replicas, config keys', () => {
    const staging = [
      deployment('staging', 'api:2', 1),
      configMap('staging', { CURRENCY: 'EUR', LOG: 'debug' }),
      secret('staging', ['TOKEN', 'FX_KEY']),
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'report', namespace: 'staging' },
        spec: {},
      },
    ] as KubernetesObject[];
    const production = [
      deployment('prod', 'api:1', 3),
      configMap('prod', { CURRENCY: 'USD', LOG: 'debug' }),
      secret('prod', ['TOKEN']),
    ];
    expect(promotionDiff(staging, production)).toEqual([
      {
        object: { kind: 'CronJob', name: 'report' },
        aspect: 'workload',
        from: 'present',
        to: 'absent',
      },
      {
        object: { kind: 'Deployment', name: 'api' },
        aspect: 'image',
        what: 'container api',
        from: 'api:2',
        to: 'api:1',
      },
      {
        object: { kind: 'Deployment', name: 'api' },
        aspect: 'replicas',
        from: '1',
        to: '3',
      },
      {
        object: { kind: 'ConfigMap', name: 'cfg' },
        aspect: 'config',
        what: 'key CURRENCY',
        from: 'EUR',
        to: 'USD',
      },
      {
        object: { kind: 'Secret', name: 'creds' },
        aspect: 'config',
        what: 'key FX_KEY',
        from: 'set',
        to: 'absent',
        secret: true,
      },
    ]);
  });

  it('never shows a Secret value, even one that was not redacted', () => {
    const leak = (value: string) =>
      ({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's', namespace: 'a' },
        data: { K: value },
      } as KubernetesObject);
    expect(
      JSON.stringify(promotionDiff([leak('c2VjcmV0')], [leak('b3RoZXI=')])),
    ).not.toMatch(/c2VjcmV0|b3RoZXI=/);
  });

  it('lists images per workload and container', () => {
    expect(environmentImages([deployment('prod', 'api:1', 1)])).toEqual({
      'Deployment/api/api': 'api:1',
      'Deployment/api/proxy': 'envoy:1',
    });
  });
});

describe('podTemplateDiff', () => {
  it('matches containers and env by name whatever their order', () => {
    const before = {
      spec: {
        containers: [
          {
            name: 'a',
            image: 'a:1',
            env: [
              { name: 'X', value: '1' },
              { name: 'Y', value: '2' },
            ],
          },
          { name: 'b', image: 'b:1' },
        ],
      },
    };
    const after = {
      spec: {
        containers: [
          { name: 'b', image: 'b:1' },
          {
            name: 'a',
            image: 'a:1',
            env: [
              { name: 'Y', value: '3' },
              { name: 'X', value: '1' },
            ],
          },
        ],
      },
    };
    expect(podTemplateDiff(before, after)).toEqual([
      {
        path: 'spec.containers[name=a].env[name=Y].value',
        change: 'changed',
        before: '2',
        after: '3',
      },
    ]);
  });
});

describe('workloadManager', () => {
  it('names the Flux applier to suspend first, and says when it is suspended', () => {
    const web = deployment('prod', 'api:1', 1, {
      'kustomize.toolkit.fluxcd.io/name': 'app',
      'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
    });
    const ks = {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'app', namespace: 'flux-system' },
      spec: { interval: '10m' },
    } as KubernetesObject;
    expect(workloadManager(web, [ks], { gitlabDeploys: true })).toEqual({
      by: 'flux',
      object: {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'app',
      },
      suspended: false,
      warning: expect.stringContaining(
        'its next reconcile (every 10m) puts the repository',
      ),
    });
    const suspended = { ...ks, spec: { suspend: true } };
    expect(
      workloadManager(web, [suspended], { gitlabDeploys: false }),
    ).toMatchObject({
      suspended: true,
      warning: expect.stringContaining('is suspended'),
    });
  });

  it('says a pipeline deploys it, or nothing', () => {
    expect(
      workloadManager(deployment('prod', 'a', 1), [], { gitlabDeploys: true }),
    ).toMatchObject({ by: 'gitlab' });
    expect(
      workloadManager(deployment('prod', 'a', 1), [], { gitlabDeploys: false }),
    ).toBeUndefined();
  });
});
