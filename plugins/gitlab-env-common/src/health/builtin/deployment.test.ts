import { KubernetesObject } from '../../types';
import { computeHealth } from '../computeHealth';
import { meta } from '../__testUtils__/objects';

function deployment(
  spec: object,
  status: object,
  generation = 2,
): KubernetesObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('web', { generation }),
    spec: { replicas: 3, ...spec },
    status: {
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      ...status,
    },
  };
}

describe('Deployment', () => {
  it.each([
    ['healthy', deployment({}, {}), { status: 'Healthy' }],
    [
      'paused',
      deployment({ paused: true }, {}),
      { status: 'Suspended', message: 'Deployment is paused' },
    ],
    [
      'generation not observed',
      deployment({}, {}, 3),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: observed deployment generation less than desired generation',
      },
    ],
    [
      'progress deadline exceeded',
      deployment(
        {},
        {
          updatedReplicas: 1,
          conditions: [
            {
              type: 'Progressing',
              status: 'False',
              reason: 'ProgressDeadlineExceeded',
            },
          ],
        },
      ),
      {
        status: 'Degraded',
        message: 'Deployment "web" exceeded its progress deadline',
      },
    ],
    [
      'rolling out',
      deployment({}, { updatedReplicas: 1 }),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: 1 out of 3 new replicas have been updated...',
      },
    ],
    [
      'old replicas terminating',
      deployment({}, { replicas: 4 }),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: 1 old replicas are pending termination...',
      },
    ],
    [
      'not yet available',
      deployment({}, { availableReplicas: 2 }),
      {
        status: 'Progressing',
        message:
          'Waiting for rollout to finish: 2 of 3 updated replicas are available...',
      },
    ],
  ])('%s', (_name, object, expected) => {
    expect(computeHealth(object)).toEqual(expected);
  });
});
