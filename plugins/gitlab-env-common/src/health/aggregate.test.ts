import { aggregateHealth, compareHealth, summarizeHealth } from './aggregate';

describe('aggregateHealth', () => {
  it('rolls up by ArgoCD severity: Missing is worse than Progressing, Unknown worst', () => {
    expect(aggregateHealth([])).toBe('Healthy');
    expect(aggregateHealth(['Healthy', undefined, 'Suspended'])).toBe(
      'Suspended',
    );
    expect(aggregateHealth(['Progressing', 'Missing'])).toBe('Missing');
    expect(aggregateHealth(['Degraded', 'Unknown', 'Missing'])).toBe('Unknown');
  });
  it('sorts worst first', () => {
    expect(
      ['Healthy', 'Unknown', 'Progressing', 'Degraded'].sort(
        compareHealth as any,
      ),
    ).toEqual(['Unknown', 'Degraded', 'Progressing', 'Healthy']);
  });
});

describe('summarizeHealth', () => {
  it('counts per status and objects with no health', () => {
    expect(
      summarizeHealth([
        { status: 'Healthy' },
        { status: 'Degraded', message: 'x' },
        undefined,
      ]),
    ).toEqual({
      status: 'Degraded',
      total: 3,
      counts: {
        Healthy: 1,
        Suspended: 0,
        Progressing: 0,
        Missing: 0,
        Degraded: 1,
        Unknown: 0,
        none: 1,
      },
    });
  });
});
