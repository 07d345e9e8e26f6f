import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const replicaSet = (status: object, generation = 1) =>
  manifest(
    'apps/v1',
    'ReplicaSet',
    { replicas: 3, selector: { matchLabels: { app: 'web' } } },
    {
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      fullyLabeledReplicas: 3,
      observedGeneration: 1,
      ...status,
    },
    { name: 'web-7d9f8b6c5', generation },
  );

describe('ReplicaSet', () => {
  it('is healthy with all replicas available', () => {
    expect(computeHealth(replicaSet({}))).toEqual({ status: 'Healthy' });
  });
  it('waits for the controller to observe the spec', () => {
    expect(computeHealth(replicaSet({}, 2))).toEqual({
      status: 'Progressing',
      message:
        'Waiting for rollout to finish: observed replica set generation less than desired generation',
    });
  });
  it('is degraded when it cannot create pods', () => {
    expect(
      computeHealth(
        replicaSet({
          availableReplicas: 0,
          conditions: [
            condition(
              'ReplicaFailure',
              'True',
              'FailedCreate',
              'pods "web-7d9f8b6c5-" is forbidden: exceeded quota: compute',
            ),
          ],
        }),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'pods "web-7d9f8b6c5-" is forbidden: exceeded quota: compute',
    });
  });
  it('waits for replicas to become available', () => {
    expect(computeHealth(replicaSet({ availableReplicas: 1 }))).toEqual({
      status: 'Progressing',
      message:
        'Waiting for rollout to finish: 1 out of 3 new replicas are available...',
    });
  });
});
