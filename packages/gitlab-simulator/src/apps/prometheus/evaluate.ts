import { KubeObject } from '../../scenario/types';
import { stableHex } from '../../cluster/ids';
import {
  containerUsage,
  hasUsage,
  measuredContainers,
  sampleOf,
} from '../../cluster/usage';
import { Expr, matches, PromqlError, Selector } from './promql';

/**
 * The cluster's cAdvisor series as kube-prometheus-stack scrapes them from
 * each kubelet (`/metrics/cadvisor`, job `kubelet`), valued from
 * `cluster/usage.ts` so they agree with the metrics API:
 * `container_memory_working_set_bytes` (gauge, bytes) and
 * `container_cpu_usage_seconds_total` (counter, seconds; evaluated through
 * rate()/irate()). Each pod also has its pod-level cgroup series
 * (`container=""`, the sum plus the pause container), which is why usage
 * queries filter `container!=""`.
 */

export const CPU_METRIC = 'container_cpu_usage_seconds_total';
export const MEMORY_METRIC = 'container_memory_working_set_bytes';
const PAUSE_MEMORY = 1024 * 1024;

/** Prometheus's `query.max-samples` (default 50,000,000), scaled to a simulator. */
export const MAX_SAMPLES = 5_000_000;

interface Series {
  labels: Record<string, string>;
  pod: KubeObject;
  /** undefined: the pod-level cgroup. */
  container?: any;
}

export class ExecutionError extends Error {}

/** What the Prometheus scrapes: the cluster's pods, and where their kubelets listen. */
export interface ScrapedCluster {
  pods: KubeObject[];
  /** A node's InternalIP (the kubelet's scrape address). */
  nodeAddress(node: string): string;
}

function seriesOf(cluster: ScrapedCluster, metric: string): Series[] {
  return cluster.pods.flatMap(pod => {
    const node = pod.spec?.nodeName as string;
    const common = {
      __name__: metric,
      endpoint: 'https-metrics',
      instance: `${cluster.nodeAddress(node)}:10250`,
      job: 'kubelet',
      metrics_path: '/metrics/cadvisor',
      namespace: pod.metadata.namespace!,
      node,
      pod: pod.metadata.name,
      service: 'kube-prometheus-stack-kubelet',
    };
    const cgroup = `/kubepods/burstable/pod${pod.metadata.uid}`;
    return [
      {
        labels: { ...common, container: '', id: cgroup, image: '', name: '' },
        pod,
      },
      ...measuredContainers(pod).map(container => {
        const id = stableHex(`${pod.metadata.uid}/${container.name}`, 64);
        return {
          labels: {
            ...common,
            container: container.name,
            id: `${cgroup}/${id}`,
            image: container.image,
            name: id,
          },
          pod,
          container,
        };
      }),
    ];
  });
}

/** Usage per (container, sample), computed once per query. */
class UsageCache {
  private readonly values = new Map<string, [number, number]>();
  samples = 0;

  /** [cpu cores, memory bytes] of a series in a sample, or undefined when there is none. */
  get(series: Series, sample: number): [number, number] | undefined {
    if (!hasUsage(series.pod, sample)) return undefined;
    const containers = series.container
      ? [series.container]
      : measuredContainers(series.pod);
    let cpu = 0;
    let memory = series.container ? 0 : PAUSE_MEMORY;
    for (const container of containers) {
      const key = `${series.pod.metadata.uid}/${container.name}/${sample}`;
      let value = this.values.get(key);
      if (!value) {
        const usage = containerUsage(series.pod, container, sample);
        value = [usage.cpuNanocores / 1e9, usage.memoryBytes];
        this.values.set(key, value);
        this.samples += 1;
        if (this.samples > MAX_SAMPLES)
          throw new ExecutionError(
            'query processing would load too many samples into memory in query execution',
          );
      }
      cpu += value[0];
      memory += value[1];
    }
    return [cpu, memory];
  }
}

export interface Point {
  labels: Record<string, string>;
  value: number;
}

function selectorSeries(cluster: ScrapedCluster, selector: Selector): Series[] {
  return seriesOf(cluster, selector.metric).filter(s =>
    matches(s.labels, selector.matchers),
  );
}

function withoutName(labels: Record<string, string>) {
  const { __name__: _name, ...rest } = labels;
  return rest;
}

/** Evaluates a parsed query at one time (ms) over the cluster's pods. */
function evaluateAt(
  expr: Expr,
  timeMs: number,
  cluster: ScrapedCluster,
  cache: UsageCache,
): Point[] {
  const sample = sampleOf(timeMs);
  switch (expr.type) {
    case 'selector': {
      if (expr.metric === CPU_METRIC)
        throw new PromqlError(
          `${CPU_METRIC} is a counter: the simulated Prometheus evaluates it only inside rate() or irate()`,
        );
      if (expr.metric !== MEMORY_METRIC) return [];
      return selectorSeries(cluster, expr).flatMap(series => {
        const value = cache.get(series, sample);
        return value ? [{ labels: series.labels, value: value[1] }] : [];
      });
    }
    case 'call': {
      if (expr.selector.metric === MEMORY_METRIC)
        throw new PromqlError(
          `${expr.fn}() of the gauge ${MEMORY_METRIC} is not evaluated by the simulated Prometheus`,
        );
      if (expr.selector.metric !== CPU_METRIC) return [];
      const first = sampleOf(timeMs - expr.rangeMs) + 1;
      return selectorSeries(cluster, expr.selector).flatMap(series => {
        const points: number[] = [];
        for (let s = Math.max(first, sample - 10_000); s <= sample; s++) {
          const value = cache.get(series, s);
          if (value) points.push(value[0]);
        }
        // rate() needs two samples in its window; each sample after the
        // first is the counter's increase over the scrape before it.
        if (points.length < 2) return [];
        const rates = expr.fn === 'irate' ? points.slice(-1) : points.slice(1);
        const value = rates.reduce((a, b) => a + b, 0) / rates.length;
        return [{ labels: withoutName(series.labels), value }];
      });
    }
    default: {
      const inner = evaluateAt(expr.expr, timeMs, cluster, cache);
      const groups = new Map<
        string,
        { labels: Record<string, string>; values: number[] }
      >();
      for (const point of inner) {
        let labels: Record<string, string> = {};
        if (expr.grouping && !expr.grouping.without) {
          for (const label of expr.grouping.labels)
            if (point.labels[label]) labels[label] = point.labels[label];
        } else if (expr.grouping?.without) {
          labels = withoutName(point.labels);
          for (const label of expr.grouping.labels) delete labels[label];
        }
        const key = JSON.stringify(Object.entries(labels).sort());
        const group = groups.get(key) ?? { labels, values: [] };
        group.values.push(point.value);
        groups.set(key, group);
      }
      return [...groups.values()].map(({ labels, values }) => {
        const sum = values.reduce((a, b) => a + b, 0);
        const value = {
          sum,
          avg: sum / values.length,
          min: Math.min(...values),
          max: Math.max(...values),
          count: values.length,
        }[expr.op];
        return { labels, value };
      });
    }
  }
}

function seriesKey(labels: Record<string, string>) {
  return JSON.stringify(Object.entries(labels).sort());
}

/** An instant query's vector. */
export function instantQuery(
  expr: Expr,
  timeMs: number,
  cluster: ScrapedCluster,
) {
  return evaluateAt(expr, timeMs, cluster, new UsageCache());
}

/** A range query's matrix: each series with its [time, value] points. */
export function rangeQuery(
  expr: Expr,
  startMs: number,
  endMs: number,
  stepMs: number,
  cluster: ScrapedCluster,
) {
  const cache = new UsageCache();
  const series = new Map<
    string,
    { labels: Record<string, string>; values: Array<[number, number]> }
  >();
  for (let t = startMs; t <= endMs; t += stepMs) {
    for (const point of evaluateAt(expr, t, cluster, cache)) {
      const key = seriesKey(point.labels);
      const entry = series.get(key) ?? { labels: point.labels, values: [] };
      entry.values.push([t, point.value]);
      series.set(key, entry);
    }
  }
  return [...series.values()];
}
