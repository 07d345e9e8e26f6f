import {
  aggregateHealth,
  compareHealth,
  rollsUp,
  summarizeHealth,
} from './aggregate';

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

describe('roll-ups and the generic rule', () => {
  it("leaves out the generic rule's Unknown, as ArgoCD gives such objects no health", () => {
    const summary = summarizeHealth([
      { status: 'Healthy' },
      { status: 'Unknown', message: 'No health rule', origin: 'generic' },
      { status: 'Degraded', origin: 'generic' },
    ]);
    expect(summary.status).toBe('Degraded');
    expect(summary.counts.none).toBe(1);
    expect(summary.counts.Unknown).toBe(0);
    expect(rollsUp({ status: 'Unknown', message: 'lua error' })).toBe(true);
  });
});
