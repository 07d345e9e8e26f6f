import { gitlabEnvPermissions } from '../permissions';
import { ActionTarget, ENVIRONMENT_ACTIONS } from '../types';
import {
  actionAppliesTo,
  actionsForKind,
  capabilitiesForKind,
  fluxSourceOf,
  kubectlCommandFor,
  permissionForCapability,
  reconcilesWithSource,
} from '.';

const web: ActionTarget = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'prod',
  name: 'web',
};
const ks: ActionTarget = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  namespace: 'flux-system',
  name: 'app',
};

describe('kubectlCommandFor', () => {
  it('names the workload, the namespace and the context', () => {
    expect(kubectlCommandFor('workload.restart', web)).toBe(
      'kubectl rollout restart deployment/web -n prod',
    );
    expect(
      kubectlCommandFor('workload.scale', web, { replicas: 3, context: 'a:1' }),
    ).toBe('kubectl scale deployment/web --replicas=3 -n prod --context=a:1');
    expect(
      kubectlCommandFor('pod.delete', {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'prod',
        name: 'web-1',
      }),
    ).toBe('kubectl delete pod web-1 -n prod');
  });

  it('undoes a rollout to a revision, or to the previous one', () => {
    expect(kubectlCommandFor('workload.rollback', web, { toRevision: 3 })).toBe(
      'kubectl rollout undo deployment/web --to-revision=3 -n prod',
    );
    expect(kubectlCommandFor('workload.rollback', web)).toBe(
      'kubectl rollout undo deployment/web -n prod',
    );
    expect(() =>
      kubectlCommandFor('workload.rollback', web, { toRevision: -2 }),
    ).toThrow(RangeError);
  });

  it('quotes a context a shell would split', () => {
    expect(
      kubectlCommandFor('workload.restart', web, { context: "it's mine" }),
    ).toBe(
      `kubectl rollout restart deployment/web -n prod --context='it'\\''s mine'`,
    );
  });

  it('refuses a scale without whole, non-negative replicas', () => {
    expect(() => kubectlCommandFor('workload.scale', web)).toThrow(RangeError);
    expect(() =>
      kubectlCommandFor('workload.scale', web, { replicas: 1.5 }),
    ).toThrow(RangeError);
    expect(() =>
      kubectlCommandFor('workload.scale', web, { replicas: -1 }),
    ).toThrow(RangeError);
  });

  it('annotates Flux objects (and their source first) and patches spec.suspend', () => {
    const source: ActionTarget = {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      namespace: 'flux-system',
      name: 'repo',
    };
    expect(
      kubectlCommandFor('flux.reconcile', ks, {
        requestedAt: '2026-01-01T00:00:00Z',
        source,
      }),
    ).toBe(
      'kubectl annotate --overwrite gitrepository.source.toolkit.fluxcd.io/repo -n flux-system reconcile.fluxcd.io/requestedAt=2026-01-01T00:00:00Z' +
        ' && kubectl annotate --overwrite kustomization.kustomize.toolkit.fluxcd.io/app -n flux-system reconcile.fluxcd.io/requestedAt=2026-01-01T00:00:00Z',
    );
    expect(kubectlCommandFor('flux.reconcile', ks)).toBe(
      'kubectl annotate --overwrite kustomization.kustomize.toolkit.fluxcd.io/app -n flux-system reconcile.fluxcd.io/requestedAt="$(date -u +%Y-%m-%dT%H:%M:%SZ)"',
    );
    expect(kubectlCommandFor('flux.suspend', ks)).toBe(
      `kubectl patch kustomization.kustomize.toolkit.fluxcd.io/app -n flux-system --type=merge -p '{"spec":{"suspend":true}}'`,
    );
    expect(kubectlCommandFor('flux.resume', ks)).toBe(
      `kubectl patch kustomization.kustomize.toolkit.fluxcd.io/app -n flux-system --type=merge -p '{"spec":{"suspend":false}}'`,
    );
  });
});

describe('actionsForKind', () => {
  it.each([
    ['v1', 'Pod', ['pod.delete']],
    [
      'apps/v1',
      'Deployment',
      ['workload.restart', 'workload.scale', 'workload.rollback'],
    ],
    [
      'apps/v1',
      'StatefulSet',
      ['workload.restart', 'workload.scale', 'workload.rollback'],
    ],
    ['apps/v1', 'DaemonSet', ['workload.restart', 'workload.rollback']],
    ['apps/v1', 'ReplicaSet', ['workload.scale']],
    [
      'helm.toolkit.fluxcd.io/v2',
      'HelmRelease',
      ['flux.reconcile', 'flux.suspend', 'flux.resume'],
    ],
    [
      'source.toolkit.fluxcd.io/v1',
      'GitRepository',
      ['flux.reconcile', 'flux.suspend', 'flux.resume'],
    ],
    ['v1', 'Service', []],
    ['example.com/v1', 'Deployment', []],
  ])('%s %s', (apiVersion, kind, actions) => {
    expect(actionsForKind(apiVersion, kind)).toEqual(actions);
  });

  it('adds logs for pods only', () => {
    expect(capabilitiesForKind('v1', 'Pod')).toEqual([
      'pod.logs',
      'pod.delete',
    ]);
    expect(capabilitiesForKind('apps/v1', 'Deployment')).not.toContain(
      'pod.logs',
    );
    expect(
      actionAppliesTo('workload.scale', {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
      }),
    ).toBe(false);
  });

  it('offers --with-source for Kustomizations and HelmReleases, not sources', () => {
    expect(reconcilesWithSource(ks.apiVersion, ks.kind)).toBe(true);
    expect(
      reconcilesWithSource('source.toolkit.fluxcd.io/v1', 'GitRepository'),
    ).toBe(false);
  });
});

describe('permissionForCapability', () => {
  it('gives every capability a registered resource permission on the catalog entity', () => {
    for (const capability of [...ENVIRONMENT_ACTIONS, 'pod.logs' as const]) {
      const permission = permissionForCapability(capability);
      expect(gitlabEnvPermissions).toContain(permission);
      expect(permission.resourceType).toBe('catalog-entity');
    }
    expect(permissionForCapability('flux.suspend')).toBe(
      permissionForCapability('flux.resume'),
    );
  });
});

describe('fluxSourceOf', () => {
  it('reads a Kustomization sourceRef, defaulting the namespace', () => {
    expect(
      fluxSourceOf({
        apiVersion: ks.apiVersion,
        kind: 'Kustomization',
        metadata: { name: 'app', namespace: 'flux-system' },
        spec: { sourceRef: { kind: 'GitRepository', name: 'repo' } },
      }),
    ).toEqual({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      namespace: 'flux-system',
      name: 'repo',
    });
  });

  it('names the HelmChart the helm-controller makes for spec.chart', () => {
    expect(
      fluxSourceOf({
        apiVersion: 'helm.toolkit.fluxcd.io/v2',
        kind: 'HelmRelease',
        metadata: { name: 'web', namespace: 'prod' },
        spec: {
          chart: {
            spec: {
              sourceRef: {
                kind: 'HelmRepository',
                name: 'charts',
                namespace: 'flux-system',
              },
            },
          },
        },
      }),
    ).toEqual({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmChart',
      namespace: 'flux-system',
      name: 'prod-web',
    });
  });

  it('gives nothing for a reference Flux cannot reconcile', () => {
    expect(
      fluxSourceOf({
        apiVersion: ks.apiVersion,
        kind: 'Kustomization',
        metadata: { name: 'app', namespace: 'flux-system' },
        spec: { sourceRef: { kind: 'ConfigMap', name: 'x' } },
      }),
    ).toBeUndefined();
  });
});
