import { KubeObject } from '../scenario/types';
import { stableNumber } from './ids';

/**
 * What the simulated containers consume, as a function of time: the one
 * source of both the metrics API (metrics-server's PodMetrics/NodeMetrics)
 * and the cluster's Prometheus (cAdvisor's container_* series), so the two
 * agree. Deterministic per container and time, with no state:
 *
 * - usage is sampled every 15 s, metrics-server's resolution ("collecting
 *   metrics every 15 seconds", kubernetes-sigs/metrics-server README), and is
 *   constant within a sample;
 * - a steady container fluctuates around a base derived from its requests
 *   (else its limits, else a per-container constant): an hourly wave plus
 *   per-sample noise;
 * - a crash-looping container's memory climbs from its base towards its
 *   limit over each 5-minute back-off cycle (the "back-off 5m0s" kubelet
 *   reports), then drops as it restarts; its CPU peaks at each start;
 * - memory is the working set (what `kubectl top` and the OOM killer see,
 *   metrics.k8s.io/v1beta1 types.go), in whole KiB.
 */

export const SAMPLE_MS = 15_000;
const WAVE_MS = 3600_000;
const CRASH_CYCLE_MS = 300_000;
const MI = 1024 * 1024;

export interface Usage {
  /** CPU in nanocores (1e9 = one core), averaged over the sample. */
  cpuNanocores: number;
  /** Working-set memory in bytes, a multiple of 1024. */
  memoryBytes: number;
}

/** A Kubernetes quantity as a number: `250m` → 0.25, `128Mi` → 134217728. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(value.trim());
  if (!match) return undefined;
  const factor: Record<string, number> = {
    '': 1,
    n: 1e-9,
    u: 1e-6,
    m: 1e-3,
    k: 1e3,
    K: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: MI,
    Gi: 1024 * MI,
    Ti: 1024 * 1024 * MI,
  };
  const f = factor[match[2]];
  return f === undefined ? undefined : Number(match[1]) * f;
}

/** A number in [0, 1) from a seed. */
function unit(seed: string): number {
  return stableNumber(seed, 1_000_000) / 1_000_000;
}

function resourcesOf(container: any) {
  const requests = container.resources?.requests ?? {};
  const limits = container.resources?.limits ?? {};
  return {
    cpuRequest: parseQuantity(requests.cpu),
    cpuLimit: parseQuantity(limits.cpu),
    memoryRequest: parseQuantity(requests.memory),
    memoryLimit: parseQuantity(limits.memory),
  };
}

/** The base (cores, bytes) a container idles around. */
function baseUsage(seed: string, container: any): [number, number] {
  const r = resourcesOf(container);
  const u = unit(`${seed}/base`);
  let cpu = 0.004 + 0.12 * u;
  if (r.cpuRequest) cpu = r.cpuRequest * (0.3 + 0.45 * u);
  else if (r.cpuLimit) cpu = r.cpuLimit * (0.15 + 0.3 * u);
  let memory = (24 + 230 * u) * MI;
  if (r.memoryRequest) memory = r.memoryRequest * (0.45 + 0.4 * u);
  else if (r.memoryLimit) memory = r.memoryLimit * (0.3 + 0.3 * u);
  return [cpu, memory];
}

function crashLooping(pod: KubeObject, name: string): boolean {
  const status = (pod.status?.containerStatuses ?? []).find(
    (c: any) => c.name === name,
  );
  return status?.state?.waiting?.reason === 'CrashLoopBackOff';
}

/** The sample (15 s bucket) a time falls in; its end is the sample's timestamp. */
export function sampleOf(timeMs: number): number {
  return Math.floor(timeMs / SAMPLE_MS);
}

/** One container's usage in the sample `sample`. */
export function containerUsage(
  pod: KubeObject,
  container: any,
  sample: number,
): Usage {
  const seed = `${pod.metadata.uid}/${container.name}`;
  const [cpuBase, memoryBase] = baseUsage(seed, container);
  const t = sample * SAMPLE_MS;
  const phase = unit(`${seed}/phase`) * 2 * Math.PI;
  const noise = (key: string) => unit(`${seed}/${key}/${sample}`) * 2 - 1;
  let cpu =
    cpuBase *
    (1 +
      0.15 * Math.sin((2 * Math.PI * t) / WAVE_MS + phase) +
      0.1 * noise('cpu'));
  let memory =
    memoryBase *
    (1 +
      0.03 * Math.sin((2 * Math.PI * t) / WAVE_MS + phase) +
      0.01 * noise('mem'));
  if (crashLooping(pod, container.name)) {
    const cycle = (t / CRASH_CYCLE_MS + unit(`${seed}/cycle`)) % 1;
    const ceiling =
      resourcesOf(container).memoryLimit ?? Math.max(memoryBase * 3, 256 * MI);
    memory = memoryBase + (ceiling * 0.97 - memoryBase) * cycle;
    cpu = cpuBase * (2.5 - 1.8 * cycle);
  }
  return {
    cpuNanocores: Math.max(1, Math.round(cpu * 1e9)),
    memoryBytes: Math.max(1024, Math.round(memory / 1024) * 1024),
  };
}

/**
 * Does the pod have usage in this sample? Only running pods on a node that
 * has been running for a whole sample (metrics-server needs two scrapes to
 * compute a CPU rate; a newer pod has "metrics not available yet").
 */
export function hasUsage(pod: KubeObject, sample: number): boolean {
  if (pod.status?.phase !== 'Running' || !pod.spec?.nodeName) return false;
  const started = Date.parse(
    pod.status?.startTime ?? pod.metadata.creationTimestamp ?? '',
  );
  return Number.isFinite(started) && started <= (sample - 1) * SAMPLE_MS;
}

/** The containers of a pod that report usage (running or crash-looping ones). */
export function measuredContainers(pod: KubeObject): any[] {
  const statuses: any[] = pod.status?.containerStatuses ?? [];
  return (pod.spec?.containers ?? []).filter((c: any) => {
    const status = statuses.find(s => s.name === c.name);
    return (
      status?.state?.running !== undefined ||
      status?.state?.waiting?.reason === 'CrashLoopBackOff'
    );
  });
}

/** What a node's system daemons and kubelet use besides the pods. */
export function nodeOverhead(node: string, sample: number): Usage {
  const u = unit(`${node}/overhead`);
  const wave = unit(`${node}/overhead/${sample}`) * 0.1;
  return {
    cpuNanocores: Math.round((0.12 + 0.1 * u + 0.02 * wave) * 1e9),
    memoryBytes:
      Math.round(((900 + 400 * u) * (1 + wave / 10) * MI) / 1024) * 1024,
  };
}

/** Kubernetes quantities as metrics-server writes them: nanocores and KiB. */
export function formatUsage(usage: Usage) {
  return {
    cpu: `${usage.cpuNanocores}n`,
    memory: `${Math.round(usage.memoryBytes / 1024)}Ki`,
  };
}
