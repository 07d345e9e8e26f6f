import { createHealthRuleSet } from './adopterRules';
import fc from 'fast-check';
import { HEALTH_STATUSES, KubernetesObject } from '../types';
import { computeHealth } from './computeHealth';
import { manifest } from './__testUtils__/objects';

const paused = manifest('apps/v1', 'Deployment', { paused: true, replicas: 1 });

describe('computeHealth pipeline', () => {
  it('reports pending deletion before any rule', () => {
    expect(
      computeHealth({
        ...paused,
        metadata: {
          ...paused.metadata,
          deletionTimestamp: '2026-11-22T10:00:00Z',
        },
      }),
    ).toEqual({ status: 'Progressing', message: 'Pending deletion' });
  });
  it('leaves hooks that Argo CD still has to clean up to their rule', () => {
    expect(
      computeHealth({
        ...paused,
        metadata: {
          ...paused.metadata,
          deletionTimestamp: '2026-11-22T10:00:00Z',
          finalizers: ['argocd.argoproj.io/hook-finalizer'],
        },
      }),
    ).toEqual({ status: 'Suspended', message: 'Deployment is paused' });
  });
  it.each([
    ['v1', 'ConfigMap'],
    ['v1', 'Secret'],
    ['v1', 'ServiceAccount'],
    ['v1', 'Endpoints'],
    ['v1', 'Namespace'],
    ['rbac.authorization.k8s.io/v1', 'Role'],
    ['rbac.authorization.k8s.io/v1', 'RoleBinding'],
    ['networking.k8s.io/v1', 'NetworkPolicy'],
  ])('gives no health to %s %s', (apiVersion, kind) => {
    expect(computeHealth(manifest(apiVersion, kind, {}))).toBeUndefined();
  });
  it.each([
    [
      'apps/v1beta2',
      'Deployment',
      'unsupported Deployment GVK: apps/v1beta2, Kind=Deployment',
    ],
    ['batch/v1beta1', 'Job', 'unsupported Job GVK: batch/v1beta1, Kind=Job'],
    [
      'autoscaling/v2beta2',
      'HorizontalPodAutoscaler',
      'unsupported HPA GVK: autoscaling/v2beta2, Kind=HorizontalPodAutoscaler',
    ],
  ])(
    'is Unknown for %s %s, a version the built-in check cannot read',
    (apiVersion, kind, message) => {
      expect(computeHealth(manifest(apiVersion, kind, {}))).toEqual({
        status: 'Unknown',
        message,
      });
    },
  );
  it('dispatches on group and kind, not kind alone', () => {
    // Not apps/Deployment's rule (which says `Deployment is paused`): the
    // generic one, marked as such.
    expect(
      computeHealth(manifest('example.com/v1', 'Deployment', { paused: true })),
    ).toEqual({
      status: 'Suspended',
      message: 'Deployment is suspended',
      origin: 'generic',
    });
    expect(computeHealth(manifest('v1', 'Deployment', { paused: true }))).toBe(
      undefined,
    );
  });
});

describe('computeHealth on malformed input', () => {
  it.each([
    null,
    undefined,
    42,
    'Deployment',
    [],
    {},
    { kind: 7 },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: 'web',
      spec: [],
      status: null,
    },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      spec: { updateStrategy: 'OnDelete' },
      status: { conditions: 'x' },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      status: { containerStatuses: [null, 1, { state: [] }] },
    },
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      status: { canary: null, blueGreen: 3 },
    },
    {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      status: { listeners: [null, { conditions: {} }] },
    },
  ])('never throws on %j', input => {
    expect(() => computeHealth(input as KubernetesObject)).not.toThrow();
  });

  it('returns a valid status or nothing for arbitrary JSON in any known kind', () => {
    const kinds = [
      ['apps/v1', 'Deployment'],
      ['apps/v1', 'StatefulSet'],
      ['apps/v1', 'DaemonSet'],
      ['apps/v1', 'ReplicaSet'],
      ['v1', 'Pod'],
      ['v1', 'Service'],
      ['batch/v1', 'Job'],
      ['batch/v1', 'CronJob'],
      ['autoscaling/v2', 'HorizontalPodAutoscaler'],
      ['kustomize.toolkit.fluxcd.io/v1', 'Kustomization'],
      ['argoproj.io/v1alpha1', 'Rollout'],
      ['gateway.networking.k8s.io/v1', 'HTTPRoute'],
      ['keda.sh/v1alpha1', 'ScaledObject'],
      ['example.com/v1', 'Widget'],
    ];
    const valid = new Set<string>(HEALTH_STATUSES);
    const check = () =>
      fc.assert(
        fc.property(
          fc.constantFrom(...kinds),
          fc.jsonValue(),
          fc.jsonValue(),
          fc.jsonValue(),
          ([apiVersion, kind], metadata, spec, status) => {
            const result = computeHealth({
              apiVersion,
              kind,
              metadata,
              spec,
              status,
            } as KubernetesObject);
            return (
              result === undefined ||
              (valid.has(result.status) &&
                (result.message === undefined ||
                  typeof result.message === 'string'))
            );
          },
        ),
        { numRuns: 2000 },
      );
    expect(check).not.toThrow();
  });
});

describe('computeHealth with adopters’ rules', () => {
  const deployment = manifest('apps/v1', 'Deployment', { paused: true });

  it('tries them before the built-in rule and marks their results', () => {
    const rules = createHealthRuleSet([
      {
        group: 'apps',
        kind: 'Deployment',
        rule: () => ({ status: 'Healthy', message: 'paused on purpose' }),
      },
    ]);
    expect(computeHealth(deployment, { rules })).toEqual({
      status: 'Healthy',
      message: 'paused on purpose',
      origin: 'adopter',
    });
  });

  it('leaves the object to the built-in rule when theirs returns undefined', () => {
    const rules = createHealthRuleSet([
      { group: 'apps', kind: 'Deployment', rule: () => undefined },
    ]);
    expect(computeHealth(deployment, { rules })).toEqual({
      status: 'Suspended',
      message: 'Deployment is paused',
    });
  });

  it('turns a throw or an invalid status into Unknown naming the rule', () => {
    const throwing = createHealthRuleSet([
      {
        group: 'apps',
        kind: 'Deployment',
        rule: () => {
          throw new Error('cannot read spec of undefined');
        },
      },
    ]);
    expect(computeHealth(deployment, { rules: throwing })).toEqual({
      status: 'Unknown',
      message: 'cannot read spec of undefined',
      origin: 'adopter',
    });
    const invalid = createHealthRuleSet([
      {
        group: 'apps',
        kind: 'Deployment',
        rule: () => ({ status: 'Fine' } as any),
      },
    ]);
    expect(computeHealth(deployment, { rules: invalid })).toEqual({
      status: 'Unknown',
      message:
        "The portal's health rule for apps/Deployment returned an invalid status: Fine",
      origin: 'adopter',
    });
  });

  it('refuses two rules for one group and kind', () => {
    expect(() =>
      createHealthRuleSet([
        {
          group: 'x.io',
          kind: 'A',
          rule: () => undefined,
          source: 'gitlabEnv.health.rules[0]',
        },
        {
          group: 'x.io',
          kind: 'A',
          rule: () => undefined,
          source: 'a backend module',
        },
      ]),
    ).toThrow(
      'Two health rules for x.io/A: from gitlabEnv.health.rules[0] and from a backend module',
    );
  });
});
