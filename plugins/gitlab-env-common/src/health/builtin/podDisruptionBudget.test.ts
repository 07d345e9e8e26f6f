import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

const pdb = (conditions?: object[]) =>
  manifest(
    'policy/v1',
    'PodDisruptionBudget',
    { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    conditions
      ? {
          currentHealthy: 3,
          desiredHealthy: 2,
          disruptionsAllowed: 1,
          expectedPods: 3,
          conditions,
        }
      : undefined,
  );

describe('PodDisruptionBudget', () => {
  it('is healthy when disruptions are allowed', () => {
    expect(
      computeHealth(
        pdb([condition('DisruptionAllowed', 'True', 'SufficientPods')]),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'PodDisruptionBudget has SufficientPods',
    });
  });
  it('stays healthy with too few pods to allow a disruption', () => {
    expect(
      computeHealth(
        pdb([condition('DisruptionAllowed', 'False', 'InsufficientPods')]),
      ),
    ).toEqual({
      status: 'Healthy',
      message: 'PodDisruptionBudget has InsufficientPods',
    });
  });
  it('is degraded by any other failing condition', () => {
    expect(
      computeHealth(
        pdb([condition('DisruptionAllowed', 'False', 'SyncFailed')]),
      ),
    ).toEqual({
      status: 'Degraded',
      message: 'PodDisruptionBudget has SyncFailed',
    });
  });
  it('waits for a status', () => {
    expect(computeHealth(pdb())).toEqual({
      status: 'Progressing',
      message: 'Waiting for status',
    });
  });
});
