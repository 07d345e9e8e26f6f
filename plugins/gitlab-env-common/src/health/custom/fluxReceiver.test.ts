import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

describe('Flux Receiver', () => {
  it('is suspended with spec.suspend and unknown without conditions', () => {
    const receiver = (spec: object, status?: object) =>
      manifest('notification.toolkit.fluxcd.io/v1', 'Receiver', spec, status);
    expect(computeHealth(receiver({ suspend: true }))).toEqual({
      status: 'Suspended',
      message: 'Receiver is suspended',
    });
    expect(computeHealth(receiver({}, {}))).toEqual({
      status: 'Progressing',
      message: 'Status unknown',
    });
  });
});
