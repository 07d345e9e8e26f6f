import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

describe('Knative Service', () => {
  it('waits for a status update without conditions', () => {
    expect(
      computeHealth(manifest('serving.knative.dev/v1', 'Service', {}, {})),
    ).toEqual({ status: 'Progressing', message: 'Waiting for status update.' });
  });
});
