import { computeHealth } from '../computeHealth';
import { meta } from '../__testUtils__/objects';

describe('HorizontalPodAutoscaler', () => {
  it('is degraded when it cannot read metrics', () => {
    expect(
      computeHealth({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: meta('web'),
        status: {
          conditions: [
            {
              type: 'AbleToScale',
              status: 'True',
              reason: 'SucceededGetScale',
              message:
                "the HPA controller was able to get the target's current scale",
            },
            {
              type: 'ScalingActive',
              status: 'False',
              reason: 'FailedGetResourceMetric',
              message: 'unable to get metrics for resource cpu',
            },
          ],
        },
      }),
    ).toEqual({
      status: 'Degraded',
      message: 'unable to get metrics for resource cpu',
    });
  });
  it('waits to autoscale without conditions', () => {
    expect(
      computeHealth({
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: meta('web'),
      }),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting to Autoscale',
    });
  });
});
