import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

describe('Flux', () => {
  it('reads a Kustomization', () => {
    expect(
      computeHealth(
        manifest('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', {
          suspend: true,
        }),
      ),
    ).toEqual({
      status: 'Suspended',
      message: 'Kustomization is suspended',
    });
    expect(
      computeHealth(
        manifest(
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
        manifest(
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
        manifest(
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
      computeHealth(
        manifest('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', {}),
      ),
    ).toEqual({ status: 'Progressing', message: 'Status unknown' });
  });
  it('needs Ready and Released for a HelmRelease', () => {
    const released = manifest(
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
    const notReleased = manifest(
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
    const repo = manifest(
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
        manifest('source.toolkit.fluxcd.io/v1', 'HelmRepository', {
          type: 'oci',
        }),
      ),
    ).toEqual({
      status: 'Healthy',
      message:
        "Helm repositories of type 'oci' do not contain any information in the status.",
    });
  });
  it.each(['OCIRepository', 'HelmChart', 'Bucket'])(
    '%s is degraded without an artifact, naming an outdated one',
    kind => {
      expect(
        computeHealth(
          manifest(
            'source.toolkit.fluxcd.io/v1',
            kind,
            {},
            {
              conditions: [
                { type: 'Ready', status: 'True', reason: 'Succeeded' },
                {
                  type: 'ArtifactOutdated',
                  status: 'True',
                  reason: 'NewRevision',
                },
              ],
            },
          ),
        ),
      ).toEqual({ status: 'Degraded', message: 'Succeeded NewRevision' });
    },
  );
  it('is degraded with no message for an empty conditions list', () => {
    expect(
      computeHealth(
        manifest(
          'source.toolkit.fluxcd.io/v1',
          'GitRepository',
          {},
          {
            conditions: [],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded' });
  });
  it('needs exactly two signals for a HelmRelease, as the Lua check counts', () => {
    expect(
      computeHealth(
        manifest(
          'helm.toolkit.fluxcd.io/v2',
          'HelmRelease',
          {},
          {
            conditions: [
              { type: 'Ready', status: 'True', reason: 'UpgradeSucceeded' },
              { type: 'Released', status: 'True', reason: 'UpgradeSucceeded' },
              { type: 'TestSuccess', status: 'True', reason: 'TestSucceeded' },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'UpgradeSucceeded' });
  });
});
