import { KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';

const cr = (
  apiVersion: string,
  kind: string,
  spec: object,
  status?: object,
  generation = 1,
): KubernetesObject => ({
  apiVersion,
  kind,
  metadata: { name: 'shop', namespace: 'flux-system', generation },
  spec,
  status,
});

describe('Flux', () => {
  it('reads a Kustomization', () => {
    expect(
      computeHealth(
        cr('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', {
          suspend: true,
        }),
      ),
    ).toEqual({
      status: 'Suspended',
      message: 'Kustomization is suspended',
    });
    expect(
      computeHealth(
        cr(
          'kustomize.toolkit.fluxcd.io/v1',
          'Kustomization',
          {},
          {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'ReconciliationSucceeded',
              },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Healthy', message: 'ReconciliationSucceeded' });
    expect(
      computeHealth(
        cr(
          'kustomize.toolkit.fluxcd.io/v1',
          'Kustomization',
          {},
          {
            conditions: [
              { type: 'Reconciling', status: 'True', reason: 'Progressing' },
              { type: 'Ready', status: 'Unknown', reason: 'Progressing' },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Progressing', message: 'Progressing' });
    expect(
      computeHealth(
        cr(
          'kustomize.toolkit.fluxcd.io/v1',
          'Kustomization',
          {},
          {
            conditions: [
              { type: 'Ready', status: 'False', reason: 'ArtifactFailed' },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'ArtifactFailed' });
    expect(
      computeHealth(cr('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', {})),
    ).toEqual({ status: 'Progressing', message: 'Status unknown' });
  });
  it('needs Ready and Released for a HelmRelease', () => {
    const released = cr(
      'helm.toolkit.fluxcd.io/v2',
      'HelmRelease',
      {},
      {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'InstallSucceeded' },
          { type: 'Released', status: 'True', reason: 'InstallSucceeded' },
        ],
      },
    );
    expect(computeHealth(released)).toEqual({
      status: 'Healthy',
      message: 'InstallSucceeded',
    });
    const notReleased = cr(
      'helm.toolkit.fluxcd.io/v2',
      'HelmRelease',
      {},
      {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'InstallSucceeded' },
        ],
      },
    );
    expect(computeHealth(notReleased)?.status).toBe('Degraded');
  });
  it('needs an artifact in storage for sources', () => {
    const repo = cr(
      'source.toolkit.fluxcd.io/v1',
      'GitRepository',
      {},
      {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'Succeeded' },
          { type: 'ArtifactInStorage', status: 'True', reason: 'Succeeded' },
        ],
      },
    );
    expect(computeHealth(repo)).toEqual({
      status: 'Healthy',
      message: 'Succeeded',
    });
    expect(
      computeHealth(
        cr('source.toolkit.fluxcd.io/v1', 'HelmRepository', { type: 'oci' }),
      )?.status,
    ).toBe('Healthy');
  });
});

describe('Argo', () => {
  it('maps a paused Rollout phase to Suspended', () => {
    expect(
      computeHealth(
        cr(
          'argoproj.io/v1alpha1',
          'Rollout',
          {},
          {
            observedGeneration: '1',
            phase: 'Paused',
            message: 'CanaryPauseStep',
          },
        ),
      ),
    ).toEqual({ status: 'Suspended', message: 'CanaryPauseStep' });
  });
  it('degrades an aborted Rollout', () => {
    expect(
      computeHealth(
        cr(
          'argoproj.io/v1alpha1',
          'Rollout',
          { strategy: { canary: {} } },
          {
            observedGeneration: 1,
            conditions: [
              {
                type: 'Progressing',
                status: 'False',
                reason: 'RolloutAborted',
                message: 'Rollout is aborted',
              },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'Rollout is aborted' });
  });
  it('reads AnalysisRun and Workflow phases', () => {
    expect(
      computeHealth(
        cr('argoproj.io/v1alpha1', 'AnalysisRun', {}, { phase: 'Failed' }),
      ),
    ).toEqual({ status: 'Degraded', message: 'Analysis run failed' });
    expect(
      computeHealth(
        cr('argoproj.io/v1alpha1', 'Workflow', {}, { phase: 'Succeeded' }),
      ),
    ).toEqual({ status: 'Healthy' });
  });
});

describe('cert-manager, KEDA, secrets, Gateway API', () => {
  it('reads a Certificate', () => {
    expect(
      computeHealth(
        cr(
          'cert-manager.io/v1',
          'Certificate',
          {},
          {
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                message: 'Issuing certificate as Secret does not exist',
              },
            ],
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Issuing certificate as Secret does not exist',
    });
    expect(computeHealth(cr('cert-manager.io/v1', 'Certificate', {}))).toEqual({
      status: 'Progressing',
      message: 'Waiting for certificate',
    });
  });
  it('suspends a paused ScaledObject', () => {
    expect(
      computeHealth(
        cr(
          'keda.sh/v1alpha1',
          'ScaledObject',
          {},
          {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                message:
                  'ScaledObject is defined correctly and is ready for scaling',
              },
              {
                type: 'Paused',
                status: 'True',
                message: 'ScaledObject is paused',
              },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Suspended', message: 'ScaledObject is paused' });
  });
  it('waits for an ExternalSecret and a SealedSecret', () => {
    expect(
      computeHealth(cr('external-secrets.io/v1beta1', 'ExternalSecret', {})),
    ).toEqual({ status: 'Progressing', message: 'Waiting for ExternalSecret' });
    expect(
      computeHealth(cr('bitnami.com/v1alpha1', 'SealedSecret', {})),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for Sealed Secret to be decrypted',
    });
  });
  it('reads HTTPRoute parents', () => {
    expect(
      computeHealth(
        cr(
          'gateway.networking.k8s.io/v1',
          'HTTPRoute',
          {},
          {
            parents: [
              {
                parentRef: { name: 'public' },
                conditions: [
                  {
                    type: 'ResolvedRefs',
                    status: 'False',
                    message: 'backend not found',
                  },
                ],
              },
            ],
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Parent public: backend not found',
    });
  });
});

describe('any other custom resource', () => {
  it('follows the Ready condition and the generation', () => {
    const db = (status: object, generation = 1) =>
      cr('postgresql.cnpg.io/v1', 'Cluster', {}, status, generation);
    expect(
      computeHealth(
        db({
          conditions: [
            { type: 'Ready', status: 'True', message: 'Cluster is Ready' },
          ],
        }),
      ),
    ).toEqual({ status: 'Healthy', message: 'Cluster is Ready' });
    expect(
      computeHealth(
        db(
          {
            observedGeneration: 1,
            conditions: [{ type: 'Ready', status: 'True' }],
          },
          2,
        ),
      )?.status,
    ).toBe('Progressing');
    expect(
      computeHealth(
        db({
          conditions: [
            { type: 'Stalled', status: 'True', message: 'invalid spec' },
          ],
        }),
      ),
    ).toEqual({ status: 'Degraded', message: 'invalid spec' });
    expect(computeHealth(db({}))).toBeUndefined();
  });
});
