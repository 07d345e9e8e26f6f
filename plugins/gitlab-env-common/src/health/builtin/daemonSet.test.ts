import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

const daemonSet = (spec: object, status: object, generation = 4) =>
  manifest(
    'apps/v1',
    'DaemonSet',
    {
      selector: { matchLabels: { app: 'node-exporter' } },
      updateStrategy: { type: 'RollingUpdate' },
      ...spec,
    },
    {
      currentNumberScheduled: 3,
      desiredNumberScheduled: 3,
      numberAvailable: 3,
      numberMisscheduled: 0,
      numberReady: 3,
      observedGeneration: 4,
      updatedNumberScheduled: 3,
      ...status,
    },
    { name: 'node-exporter', generation },
  );

describe('DaemonSet', () => {
  it('is healthy when every node runs the current pods', () => {
    expect(computeHealth(daemonSet({}, {}))).toEqual({ status: 'Healthy' });
  });
  it('waits for the controller to observe the spec', () => {
    expect(computeHealth(daemonSet({}, {}, 5))).toEqual({
      status: 'Progressing',
      message:
        'Waiting for rollout to finish: observed daemon set generation less than desired generation',
    });
  });
  it('waits for pods to be updated, then to be available', () => {
    expect(computeHealth(daemonSet({}, { updatedNumberScheduled: 1 }))).toEqual(
      {
        status: 'Progressing',
        message:
          'Waiting for daemon set "node-exporter" rollout to finish: 1 out of 3 new pods have been updated...',
      },
    );
    expect(computeHealth(daemonSet({}, { numberAvailable: 2 }))).toEqual({
      status: 'Progressing',
      message:
        'Waiting for daemon set "node-exporter" rollout to finish: 2 of 3 updated pods are available...',
    });
  });
  it('reports OnDelete as healthy with the updated count', () => {
    expect(
      computeHealth(
        daemonSet(
          { updateStrategy: { type: 'OnDelete' } },
          { updatedNumberScheduled: 1 },
        ),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'daemon set 1 out of 3 new pods have been updated',
    });
  });
});
