import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const eso = (kind: string, conditions?: object[]) =>
  manifest(
    'external-secrets.io/v1beta1',
    kind,
    { refreshInterval: '1h' },
    conditions ? { conditions } : undefined,
  );

describe('External Secrets', () => {
  it.each([
    'ExternalSecret',
    'SecretStore',
    'ClusterSecretStore',
    'PushSecret',
  ])('%s follows its first Ready condition', kind => {
    expect(computeHealth(eso(kind))).toEqual({
      status: 'Progressing',
      message: `Waiting for ${kind}`,
    });
    expect(
      computeHealth(
        eso(kind, [
          condition('Ready', 'True', 'SecretSynced', 'Secret was synced'),
        ]),
      ),
    ).toEqual({ status: 'Healthy', message: 'Secret was synced' });
    expect(
      computeHealth(
        eso(kind, [
          condition(
            'Ready',
            'False',
            'SecretSyncedError',
            'could not get secret data from provider',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'could not get secret data from provider',
    });
  });
  it('ignores a Ready condition older than the last OnChange refresh', () => {
    const onChange = (lastTransitionTime: string) =>
      manifest(
        'external-secrets.io/v1',
        'ExternalSecret',
        { refreshPolicy: 'OnChange' },
        {
          refreshTime: '2026-11-22T10:05:00Z',
          conditions: [
            {
              ...condition(
                'Ready',
                'True',
                'SecretSynced',
                'Secret was synced',
              ),
              lastTransitionTime,
            },
          ],
        },
      );
    expect(computeHealth(onChange('2026-11-22T10:00:00Z'))).toEqual({
      status: 'Progressing',
      message: 'Waiting for ExternalSecret',
    });
    expect(computeHealth(onChange('2026-11-22T10:05:00Z'))).toEqual({
      status: 'Healthy',
      message: 'Secret was synced',
    });
  });
  it('judges a ClusterExternalSecret by its last condition only', () => {
    expect(
      computeHealth(
        eso('ClusterExternalSecret', [
          condition(
            'NotReady',
            'True',
            undefined,
            'one or more namespaces failed',
          ),
          condition('Ready', 'True', undefined, 'all namespaces provisioned'),
        ]),
      ),
    ).toEqual({ status: 'Healthy', message: 'all namespaces provisioned' });
    expect(
      computeHealth(
        eso('ClusterExternalSecret', [
          condition(
            'PartiallyReady',
            'True',
            undefined,
            'one or more namespaces failed',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'one or more namespaces failed',
    });
    expect(computeHealth(eso('ClusterExternalSecret'))).toEqual({
      status: 'Progressing',
      message: 'Waiting for ClusterExternalSecret',
    });
  });
});

describe('SealedSecret', () => {
  const sealed = (conditions?: object[]) =>
    manifest(
      'bitnami.com/v1alpha1',
      'SealedSecret',
      { encryptedData: { password: 'AgBy3i4OJSWK+PiTySYZZA==' } },
      conditions ? { conditions, observedGeneration: 1 } : undefined,
    );
  it('follows its Synced condition', () => {
    expect(computeHealth(sealed())).toEqual({
      status: 'Progressing',
      message: 'Waiting for Sealed Secret to be decrypted',
    });
    expect(computeHealth(sealed([condition('Synced', 'True')]))).toEqual({
      status: 'Healthy',
    });
    expect(
      computeHealth(
        sealed([
          condition(
            'Synced',
            'False',
            'ErrUnsealFailed',
            'no key could decrypt secret (password)',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'no key could decrypt secret (password)',
    });
  });
});
