import { KubeObject } from '../scenario/types';
import {
  containerUsage,
  formatUsage,
  hasUsage,
  parseQuantity,
  SAMPLE_MS,
  sampleOf,
} from './usage';

function pod(state: 'running' | 'crashloop', resources = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', uid: `uid-${state}` },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'app', image: 'app:1', resources }],
    },
    status: {
      phase: 'Running',
      startTime: '2026-11-22T10:00:00Z',
      containerStatuses: [
        state === 'running'
          ? { name: 'app', state: { running: {} } }
          : { name: 'app', state: { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    },
  };
}

const at = sampleOf(Date.parse('2026-11-22T12:00:00Z'));
const samples = (n: number) => Array.from({ length: n }, (_, i) => at + i);

describe('simulated usage (one source for metrics-server and Prometheus)', () => {
  it('parses Kubernetes quantities', () => {
    expect(parseQuantity('250m')).toBe(0.25);
    expect(parseQuantity('2')).toBe(2);
    expect(parseQuantity('128Mi')).toBe(134217728);
    expect(parseQuantity('1G')).toBe(1e9);
    expect(parseQuantity('lots')).toBeUndefined();
  });

  it('fluctuates around a base from the requests, the same for the same sample', () => {
    const steady = pod('running', {
      requests: { cpu: '200m', memory: '256Mi' },
    });
    const container = steady.spec.containers[0];
    const usage = samples(240).map(s => containerUsage(steady, container, s));
    const cpu = usage.map(u => u.cpuNanocores / 1e9);
    const memory = usage.map(u => u.memoryBytes / 2 ** 20);
    // Base 30-75 % of the request, ±15 % wave, ±10 % noise.
    expect(Math.min(...cpu)).toBeGreaterThan(0.2 * 0.3 * 0.75);
    expect(Math.max(...cpu)).toBeLessThan(0.2 * 0.75 * 1.25);
    expect(Math.max(...cpu)).toBeGreaterThan(Math.min(...cpu));
    expect(Math.max(...memory) / Math.min(...memory)).toBeLessThan(1.1);
    expect(containerUsage(steady, container, at)).toEqual(usage[0]);
    expect(usage.every(u => u.memoryBytes % 1024 === 0)).toBe(true);
  });

  it("climbs a crash-looping container's memory towards its limit, then drops at the restart", () => {
    const looping = pod('crashloop', { limits: { memory: '512Mi' } });
    const container = looping.spec.containers[0];
    const memory = samples(40).map(
      s => containerUsage(looping, container, s).memoryBytes,
    );
    const drops = memory.filter((m, i) => i > 0 && m < memory[i - 1]);
    // A 5-minute cycle is 20 samples: over 40, at least one restart and long climbs.
    expect(drops.length).toBeGreaterThanOrEqual(1);
    expect(drops.length).toBeLessThanOrEqual(2);
    const rising = memory.filter((m, i) => i > 0 && m > memory[i - 1]);
    expect(rising.length).toBeGreaterThanOrEqual(36);
    expect(Math.max(...memory)).toBeLessThanOrEqual(512 * 2 ** 20);
  });

  it('has no usage for a pod that is not running or started within the last sample', () => {
    const started = pod('running');
    expect(hasUsage(started, at)).toBe(true);
    const fresh = {
      ...started,
      status: {
        ...started.status,
        startTime: new Date((at - 1) * SAMPLE_MS + 1000).toISOString(),
      },
    };
    expect(hasUsage(fresh, at)).toBe(false);
    expect(
      hasUsage(
        { ...started, status: { ...started.status, phase: 'Pending' } },
        at,
      ),
    ).toBe(false);
  });

  it('formats usage as metrics-server does: nanocores and KiB', () => {
    expect(
      formatUsage({ cpuNanocores: 1234567, memoryBytes: 2048 * 1024 }),
    ).toEqual({ cpu: '1234567n', memory: '2048Ki' });
  });
});
