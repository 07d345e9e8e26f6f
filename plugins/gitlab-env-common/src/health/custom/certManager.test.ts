import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const cm = (
  kind: string,
  conditions?: object[],
  apiVersion = 'cert-manager.io/v1',
) => manifest(apiVersion, kind, {}, conditions ? { conditions } : undefined);

describe('Certificate', () => {
  it('is progressing while issuing, whatever Ready says', () => {
    expect(
      computeHealth(
        cm('Certificate', [
          condition(
            'Ready',
            'False',
            'DoesNotExist',
            'Issuing certificate as Secret does not exist',
          ),
          condition(
            'Issuing',
            'True',
            'DoesNotExist',
            'Issuing certificate as Secret does not exist',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Issuing certificate as Secret does not exist',
    });
  });
  it('follows Ready', () => {
    expect(
      computeHealth(
        cm('Certificate', [
          condition(
            'Ready',
            'True',
            'Ready',
            'Certificate is up to date and has not expired',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'Certificate is up to date and has not expired',
    });
    expect(
      computeHealth(
        cm('Certificate', [
          condition(
            'Ready',
            'False',
            'Failed',
            'The certificate request has failed to complete and will be retried',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message:
        'The certificate request has failed to complete and will be retried',
    });
    expect(computeHealth(cm('Certificate'))).toEqual({
      status: 'Progressing',
      message: 'Waiting for certificate',
    });
  });
  it('reads legacy certmanager.k8s.io certificates', () => {
    expect(
      computeHealth(
        cm(
          'Certificate',
          [
            condition(
              'Ready',
              'True',
              'Ready',
              'Certificate is up to date and has not expired',
            ),
          ],
          'certmanager.k8s.io/v1alpha1',
        ),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'Certificate is up to date and has not expired',
    });
  });
});

describe('Issuer and ClusterIssuer', () => {
  it('wait to be initialized, then follow Ready', () => {
    expect(computeHealth(cm('Issuer'))).toEqual({
      status: 'Progressing',
      message: 'Initializing issuer',
    });
    expect(computeHealth(cm('ClusterIssuer'))).toEqual({
      status: 'Progressing',
      message: 'Initializing ClusterIssuer',
    });
    expect(
      computeHealth(
        cm('ClusterIssuer', [
          condition(
            'Ready',
            'True',
            'ACMEAccountRegistered',
            'The ACME account was registered with the ACME server',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'The ACME account was registered with the ACME server',
    });
    expect(
      computeHealth(
        cm('Issuer', [
          condition(
            'Ready',
            'False',
            'ErrInitIssuer',
            'Error initializing issuer: secret "ca-key-pair" not found',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Error initializing issuer: secret "ca-key-pair" not found',
    });
  });
});
