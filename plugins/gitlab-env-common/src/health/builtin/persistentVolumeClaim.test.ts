import { computeHealth } from '../computeHealth';
import { manifest } from '../__testUtils__/objects';

const claim = (phase?: string) =>
  manifest(
    'v1',
    'PersistentVolumeClaim',
    {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '10Gi' } },
      storageClassName: 'standard',
    },
    phase ? { phase, accessModes: ['ReadWriteOnce'] } : undefined,
    { name: 'data-db-0' },
  );

describe('PersistentVolumeClaim', () => {
  it.each([
    ['Bound', 'Healthy'],
    ['Pending', 'Progressing'],
    ['Lost', 'Degraded'],
    [undefined, 'Unknown'],
  ])('%s is %s', (phase, status) => {
    expect(computeHealth(claim(phase))).toEqual({ status });
  });
});
