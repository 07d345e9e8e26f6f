import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

describe('EventBus', () => {
  it('waits for initialization without a Deployed condition, and uses the reason without a message', () => {
    expect(
      computeHealth(manifest('argoproj.io/v1alpha1', 'EventBus', {}, {})),
    ).toEqual({ status: 'Progressing', message: 'Waiting for initialization' });
    expect(
      computeHealth(
        manifest(
          'argoproj.io/v1alpha1',
          'EventBus',
          {},
          {
            conditions: [condition('Deployed', 'True', 'Succeeded')],
          },
        ),
      ),
    ).toEqual({ status: 'Healthy', message: 'Succeeded' });
  });
});
