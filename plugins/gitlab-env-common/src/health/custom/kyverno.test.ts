import { computeHealth } from '../computeHealth';
import { condition, manifest } from '../__testUtils__/objects';

describe('Kyverno Policy', () => {
  it('stays Progressing, never Degraded, while not ready', () => {
    expect(
      computeHealth(
        manifest(
          'kyverno.io/v1',
          'Policy',
          {},
          {
            conditions: [
              condition('Ready', 'False', 'Failed', 'rules failed to load'),
            ],
          },
        ),
      ),
    ).toEqual({
      status: 'Progressing',
      message: 'Waiting for Policy to be ready',
    });
  });
});
