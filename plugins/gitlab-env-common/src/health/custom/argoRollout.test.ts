import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const canary = {
  canary: {
    steps: [{ setWeight: 20 }, { pause: {} }, { setWeight: 100 }],
  },
};
const blueGreen = {
  blueGreen: { activeService: 'web-active', previewService: 'web-preview' },
};

const rollout = (
  spec: object,
  status?: object,
  metadata: object = { generation: 3 },
) =>
  manifest(
    'argoproj.io/v1alpha1',
    'Rollout',
    { replicas: 3, strategy: canary, ...spec },
    status,
    metadata,
  );

const settled = {
  observedGeneration: '3',
  currentPodHash: '6b8d7c9f5',
  stableRS: '6b8d7c9f5',
  replicas: 3,
  updatedReplicas: 3,
  readyReplicas: 3,
  availableReplicas: 3,
};

describe('Rollout', () => {
  it('is healthy when the canary is fully promoted', () => {
    expect(computeHealth(rollout({}, settled))).toEqual({ status: 'Healthy' });
  });
  it('waits for the spec to be observed', () => {
    const waiting = {
      status: 'Progressing',
      message: 'Waiting for rollout spec update to be observed',
    };
    expect(computeHealth(rollout({}))).toEqual(waiting);
    expect(
      computeHealth(rollout({}, { ...settled, observedGeneration: 2 })),
    ).toEqual(waiting);
    expect(
      computeHealth(
        rollout(
          {
            workloadRef: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'web',
            },
          },
          { ...settled, workloadObservedGeneration: '4' },
          {
            generation: 3,
            annotations: { 'rollout.argoproj.io/workload-generation': '5' },
          },
        ),
      ),
    ).toEqual(waiting);
  });
  it('counts a legacy hash observedGeneration as observed', () => {
    expect(
      computeHealth(rollout({}, { ...settled, observedGeneration: '7d5f8c' })),
    ).toEqual({ status: 'Healthy' });
  });
  it('takes the controller phase, Paused as Suspended', () => {
    expect(
      computeHealth(
        rollout(
          {},
          { ...settled, phase: 'Paused', message: 'CanaryPauseStep' },
        ),
      ),
    ).toEqual({ status: 'Suspended', message: 'CanaryPauseStep' });
    expect(
      computeHealth(
        rollout(
          {},
          {
            ...settled,
            phase: 'Degraded',
            message: 'RolloutAborted: Rollout aborted update to revision 4',
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'RolloutAborted: Rollout aborted update to revision 4',
    });
  });
  it('is Unknown for a phase that is no health status', () => {
    expect(
      computeHealth(rollout({}, { ...settled, phase: 'Promoting' })),
    ).toEqual({
      status: 'Unknown',
      message: 'Lua returned an invalid health status',
    });
  });
  it('is degraded when aborted, timed out or invalid', () => {
    expect(
      computeHealth(
        rollout(
          {},
          {
            ...settled,
            conditions: [
              condition(
                'Progressing',
                'False',
                'RolloutAborted',
                'Rollout is aborted',
              ),
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'Rollout is aborted' });
    expect(
      computeHealth(
        rollout(
          {},
          {
            ...settled,
            conditions: [
              condition(
                'Progressing',
                'False',
                'ProgressDeadlineExceeded',
                'ReplicaSet "web-6b8d7c9f5" has timed out progressing.',
              ),
            ],
          },
        ),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'ReplicaSet "web-6b8d7c9f5" has timed out progressing.',
    });
    expect(
      computeHealth(
        rollout(
          {},
          {
            ...settled,
            conditions: [
              condition(
                'InvalidSpec',
                'True',
                'InvalidSpec',
                'The Rollout "web" is invalid',
              ),
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Degraded', message: 'The Rollout "web" is invalid' });
  });
  it('is suspended while paused', () => {
    expect(
      computeHealth(
        rollout(
          {},
          {
            ...settled,
            pauseConditions: [
              { reason: 'CanaryPauseStep', startTime: '2026-11-22T10:00:00Z' },
            ],
          },
        ),
      ),
    ).toEqual({ status: 'Suspended', message: 'Rollout is paused' });
    expect(computeHealth(rollout({ paused: true }, settled))).toEqual({
      status: 'Suspended',
      message: 'Rollout is paused',
    });
  });
  it('follows replicas through a canary', () => {
    expect(
      computeHealth(rollout({}, { ...settled, currentPodHash: undefined })),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for rollout to finish: status has not been reconciled.',
    });
    expect(
      computeHealth(rollout({}, { ...settled, updatedReplicas: 1 })),
    ).toEqual({
      status: 'Progressing',
      message:
        'Waiting for roll out to finish: More replicas need to be updated',
    });
    expect(
      computeHealth(rollout({}, { ...settled, availableReplicas: 2 })),
    ).toEqual({
      status: 'Progressing',
      message:
        'Waiting for roll out to finish: updated replicas are still becoming available',
    });
    expect(computeHealth(rollout({}, { ...settled, replicas: 4 }))).toEqual({
      status: 'Progressing',
      message:
        'Waiting for roll out to finish: old replicas are pending termination',
    });
    expect(
      computeHealth(rollout({}, { ...settled, stableRS: '58c7d9b6f4' })),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for rollout to finish steps',
    });
  });
  it('waits for the blue-green cutover and analysis', () => {
    const bg = (status: object) =>
      rollout({ strategy: blueGreen }, { ...settled, ...status });
    expect(
      computeHealth(bg({ blueGreen: { activeSelector: '58c7d9b6f4' } })),
    ).toEqual({
      status: 'Progressing',
      message: 'active service cutover pending',
    });
    expect(
      computeHealth(
        bg({
          blueGreen: { activeSelector: '6b8d7c9f5' },
          stableRS: '58c7d9b6f4',
        }),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'waiting for analysis to complete',
    });
    expect(
      computeHealth(bg({ blueGreen: { activeSelector: '6b8d7c9f5' } })),
    ).toEqual({ status: 'Healthy' });
  });
});
