import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

describe('Config Connector', () => {
  it('is Suspended while a dependency is not ready, and reads status.healthy of the operator', () => {
    expect(
      computeHealth(
        manifest(
          'sql.cnrm.cloud.google.com/v1beta1',
          'SQLDatabase',
          {},
          {
            observedGeneration: 1,
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                reason: 'DependencyNotReady',
                message: 'Dependency not ready',
              },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Suspended', message: 'Dependency not ready' });
    expect(
      computeHealth(
        manifest(
          'core.cnrm.cloud.google.com/v1beta1',
          'ConfigConnector',
          {},
          {
            healthy: false,
            observedGeneration: 1,
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'ConfigConnector is not healthy',
    });
  });
});
