import { mockServices } from '@backstage/backend-test-utils';
import { PodMetricsRead } from './podMetrics';
import { UsageSampler } from './UsageSampler';

const read = (cpu: string): PodMetricsRead => ({
  metrics: { available: true },
  items: [
    {
      metadata: { name: 'a', namespace: 'ns' },
      containers: [
        { name: 'c1', usage: { cpu, memory: '1Mi' } },
        { name: 'c2', usage: { cpu: '1m', memory: '1Mi' } },
      ],
    },
  ],
});

describe('UsageSampler', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function sampler() {
    return new UsageSampler(
      { intervalMs: 15_000, keepSamples: 3, graceMs: 60_000 },
      mockServices.logger.mock(),
    );
  }

  it('samples a scope once per interval however many viewers ask, keeping the last samples', async () => {
    const s = sampler();
    let reads = 0;
    const reader = async () => read(`${++reads}0m`);
    await Promise.all(Array.from({ length: 100 }, () => s.join('k', reader)));
    expect(reads).toBe(1);
    for (let tick = 0; tick < 4; tick++) {
      await jest.advanceTimersByTimeAsync(15_000);
      await Promise.all(Array.from({ length: 100 }, () => s.join('k', reader)));
    }
    expect(reads).toBe(5);
    const scope = await s.join('k', reader);
    expect(
      scope.samples.map(x => {
        const [cpu, memory] = x.pods.get('ns/a')!;
        return [Math.round(cpu * 1000), memory];
      }),
    ).toEqual([
      [31, 2 * 2 ** 20],
      [41, 2 * 2 ** 20],
      [51, 2 * 2 ** 20],
    ]);
    s.close();
  });

  it('stops sampling a scope nobody asked for within the grace period, and starts afresh', async () => {
    const s = sampler();
    let reads = 0;
    const reader = async () => {
      reads += 1;
      return read('10m');
    };
    await s.join('k', reader);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(s.stats().scopes).toBe(0);
    const before = reads;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(reads).toBe(before);
    const again = await s.join('k', reader);
    expect(again.samples).toHaveLength(1);
  });

  it('keeps the samples and says why when a sample fails', async () => {
    const s = sampler();
    let fail = false;
    const reader = async () => {
      if (fail) throw new Error('boom');
      return read('10m');
    };
    await s.join('k', reader);
    fail = true;
    await jest.advanceTimersByTimeAsync(15_000);
    const scope = await s.join('k', reader);
    expect(scope.samples).toHaveLength(1);
    expect(scope.error?.code).toBe('UPSTREAM_ERROR');
    s.close();
  });
});
