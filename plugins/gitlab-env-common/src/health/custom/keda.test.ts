import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const keda = (kind: string, conditions?: object[]) =>
  manifest(
    'keda.sh/v1alpha1',
    kind,
    { scaleTargetRef: { name: 'worker' }, triggers: [{ type: 'rabbitmq' }] },
    conditions ? { conditions } : undefined,
  );
const ready = condition(
  'Ready',
  'True',
  'ScaledObjectReady',
  'ScaledObject is defined correctly and is ready for scaling',
);

describe('ScaledObject', () => {
  it('is healthy when ready', () => {
    expect(
      computeHealth(
        keda('ScaledObject', [
          ready,
          condition(
            'Active',
            'False',
            'ScalerNotActive',
            'Scaling is not performed because triggers are not active',
          ),
          condition(
            'Fallback',
            'False',
            'NoFallbackFound',
            'No fallbacks are active on this scaled object',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'ScaledObject is defined correctly and is ready for scaling',
    });
  });
  it('is suspended when ready and paused', () => {
    expect(
      computeHealth(
        keda('ScaledObject', [
          ready,
          condition(
            'Paused',
            'True',
            'ScaledObjectPaused',
            'ScaledObject is paused',
          ),
        ]),
      ),
    ).toEqual({ status: 'Suspended', message: 'ScaledObject is paused' });
  });
  it('is degraded when not ready or falling back', () => {
    expect(
      computeHealth(
        keda('ScaledObject', [
          condition(
            'Ready',
            'False',
            'ScaledObjectCheckFailed',
            "ScaledObject doesn't have correct triggers specification",
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: "ScaledObject doesn't have correct triggers specification",
    });
    expect(
      computeHealth(
        keda('ScaledObject', [
          ready,
          condition(
            'Fallback',
            'True',
            'FallbackExists',
            'At least one trigger is falling back on this scaled object',
          ),
        ]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'At least one trigger is falling back on this scaled object',
    });
  });
  it('waits for its HPA', () => {
    expect(computeHealth(keda('ScaledObject'))).toEqual({
      status: 'Progressing',
      message: 'Creating HorizontalPodAutoscaler Object',
    });
  });
});

describe('ScaledJob', () => {
  it('is degraded while readiness is unknown', () => {
    expect(
      computeHealth(
        keda('ScaledJob', [
          condition('Ready', 'Unknown', 'Unknown', 'Failed to create job'),
        ]),
      ),
    ).toEqual({ status: 'Degraded', message: 'Failed to create job' });
  });
  it('ignores Fallback, which scaled jobs do not have', () => {
    expect(
      computeHealth(
        keda('ScaledJob', [
          condition(
            'Ready',
            'True',
            undefined,
            'ScaledJob is defined correctly and is ready to scaling',
          ),
          condition('Fallback', 'True'),
        ]),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'ScaledJob is defined correctly and is ready to scaling',
    });
  });
  it('waits for its status', () => {
    expect(computeHealth(keda('ScaledJob'))).toEqual({
      status: 'Progressing',
      message: 'Waiting for ScaledJob',
    });
  });
});
