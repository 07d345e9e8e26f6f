import { KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';
import { meta } from '../__testUtils__/objects';

describe('Job', () => {
  it('reads Job conditions', () => {
    const job = (conditions: object[]): KubernetesObject => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: meta('reindex'),
      status: { conditions },
    });
    expect(computeHealth(job([]))).toEqual({ status: 'Progressing' });
    expect(
      computeHealth(
        job([
          {
            type: 'Failed',
            status: 'True',
            message: 'Job has reached the specified backoff limit',
          },
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'Job has reached the specified backoff limit',
    });
    expect(
      computeHealth(
        job([{ type: 'Suspended', status: 'True', message: 'Job suspended' }]),
      ),
    ).toEqual({ status: 'Suspended', message: 'Job suspended' });
  });
});
