import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const apiService = (conditions?: object[]) =>
  manifest(
    'apiregistration.k8s.io/v1',
    'APIService',
    {
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      service: { name: 'metrics-server', namespace: 'kube-system' },
    },
    conditions ? { conditions } : undefined,
    { name: 'v1beta1.metrics.k8s.io', namespace: undefined },
  );

describe('APIService', () => {
  it('is healthy when available', () => {
    expect(
      computeHealth(
        apiService([
          condition('Available', 'True', 'Passed', 'all checks passed'),
        ]),
      ),
    ).toEqual({ status: 'Healthy', message: 'Passed: all checks passed' });
  });
  it('is progressing while the backing service fails', () => {
    expect(
      computeHealth(
        apiService([
          condition(
            'Available',
            'False',
            'MissingEndpoints',
            'endpoints for service/metrics-server in "kube-system" have no addresses',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Progressing',
      message:
        'MissingEndpoints: endpoints for service/metrics-server in "kube-system" have no addresses',
    });
  });
  it('waits for its first status', () => {
    expect(computeHealth(apiService())).toEqual({
      status: 'Progressing',
      message: 'Waiting to be processed',
    });
  });
});
