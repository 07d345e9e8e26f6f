import { Config } from '@backstage/config';
import { Entity } from '@backstage/catalog-model';
import {
  computeUsage,
  EnvironmentUsageResponse,
  KubernetesObject,
  kubectlTop,
  podKey,
  PodUsage,
  UsagePoint,
  UsageTrend,
  USAGE_WORKLOAD_KINDS,
  workloadSelector,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { CoalescingCache } from '../caching/cache';
import { failure } from '../errors';
import type { CallOptions, GitlabEnvironmentsService } from '../facade';
import type { LivePlanner } from '../planning/LivePlanner';
import { isKindName, isPathSegmentName } from '../validation';
import { listPodMetrics } from './podMetrics';
import {
  describePrometheusFailure,
  findPrometheus,
  prometheusLabel,
  PrometheusService,
  prometheusTrend,
  usageQueries,
} from './prometheus';
import {
  SampledScope,
  UsageSampler,
  UsageSamplerSettings,
} from './UsageSampler';

/** `gitlabEnv.usage`. */
export interface UsageSettings extends UsageSamplerSettings {
  prometheus: { enabled: boolean; rangeSeconds: number; stepSeconds: number };
}

export function readUsageSettings(root: Config): UsageSettings {
  const config = root.getOptionalConfig('gitlabEnv.usage');
  const seconds = (key: string, fallback: number) =>
    (config?.getOptionalNumber(key) ?? fallback) * 1000;
  return {
    intervalMs: seconds('sampleIntervalSeconds', 15),
    keepSamples: config?.getOptionalNumber('keepSamples') ?? 40,
    graceMs: seconds('graceSeconds', 60),
    prometheus: {
      enabled: config?.getOptionalBoolean('prometheus.enabled') ?? true,
      rangeSeconds:
        (config?.getOptionalNumber('prometheus.rangeHours') ?? 3) * 3600,
      stepSeconds: config?.getOptionalNumber('prometheus.stepSeconds') ?? 60,
    },
  };
}

/** Which pod or workload the trend is for (`?pod=` or `?workload=Kind/name`). */
export interface UsageTarget {
  pod?: string;
  workload?: string;
}

function checkTarget(target: UsageTarget) {
  if (target.pod !== undefined && !isPathSegmentName(target.pod))
    throw failure('INVALID_REQUEST', 'pod must be a pod name.');
  if (target.workload !== undefined) {
    const [kind, name, ...rest] = target.workload.split('/');
    if (rest.length || !isKindName(kind) || !isPathSegmentName(name))
      throw failure(
        'INVALID_REQUEST',
        'workload must be <Kind>/<name>, e.g. Deployment/checkout-api.',
      );
  }
}

/**
 * Usage for the live tab: per pod and per workload, from the sampler's
 * latest metrics.k8s.io read of the environment's scope against the
 * requests and limits of the pods the environment's live state holds (the
 * tab's own state, joined); and, for one pod or workload, its trend from
 * the cluster's Prometheus when one is found, else what was sampled while
 * the page was open.
 */
export class EnvironmentUsage {
  /** Per agent: the Prometheus found (or none), looked for again after 10 minutes. */
  private readonly prometheus = new CoalescingCache({ ttlMs: 10 * 60_000 });
  /** Per scope and target: the trend from Prometheus, shared by every viewer for a step. */
  private readonly trends: CoalescingCache;
  readonly sampler: UsageSampler;

  constructor(
    private readonly service: Pick<GitlabEnvironmentsService, 'locateLive'>,
    private readonly planner: Pick<LivePlanner, 'follow'>,
    private readonly settings: UsageSettings,
    sampler: UsageSampler,
    private readonly now: () => number = Date.now,
  ) {
    this.sampler = sampler;
    this.trends = new CoalescingCache({
      ttlMs: settings.prometheus.stepSeconds * 1000,
      now,
    });
  }

  async usage(
    entity: Entity,
    slug: string,
    target: UsageTarget,
    options: CallOptions = {},
  ): Promise<EnvironmentUsageResponse> {
    checkTarget(target);
    const { signal } = options;
    const live = await this.service.locateLive(entity, slug, options);
    const namespace = live.environment.namespace!;
    const agentName = live.environment.agent?.name ?? 'of this environment';
    const { access } = live;
    if (access.via !== 'kas') {
      return {
        metrics: {
          available: false,
          reason: `A backend module serves the cluster of agent ${agentName}; it serves no metrics.`,
        },
        kubectl: kubectlTop({ namespace, labelSelector: live.labelSelector }),
        pods: [],
        workloads: [],
        intervalSeconds: this.settings.intervalMs / 1000,
      };
    }
    const scopeKey = `${live.agentKey}|${
      live.labelSelector ?? ''
    }|${namespace}`;
    const [scope, objects] = await Promise.all([
      this.sampler.join(scopeKey, s =>
        listPodMetrics(access.kas(s), namespace, live.labelSelector, agentName),
      ),
      this.liveObjects(live),
    ]);
    if (!scope.latest && scope.error)
      throw failure(scope.error.code, scope.error.message, scope.error);
    const { pods, workloads } = computeUsage({
      pods: objects.filter(o => o.kind === 'Pod'),
      owners: objects.filter(o => o.kind && USAGE_WORKLOAD_KINDS.has(o.kind)),
      metrics: scope.latest?.items ?? [],
    });
    const answer: EnvironmentUsageResponse = {
      metrics: scope.latest?.metrics ?? {
        available: false,
        reason: scope.error?.message ?? 'No sample yet.',
      },
      kubectl: this.kubectlFor(target, namespace, live.labelSelector, objects),
      pods,
      workloads,
      sampledAt: scope.sampledAt
        ? new Date(scope.sampledAt).toISOString()
        : undefined,
      intervalSeconds: this.settings.intervalMs / 1000,
    };
    if (!answer.metrics.available) return answer;
    const trendPods = this.targetPods(target, pods, namespace);
    if (!trendPods) return answer;
    const sampled = sampledTrend(scope, trendPods, this.settings.intervalMs);
    if (!this.settings.prometheus.enabled || trendPods.length === 0)
      return { ...answer, trend: sampled };
    const found = (await this.prometheus
      .getOrLoad(live.agentKey, s => findPrometheus(access.kas(s)), { signal })
      .catch(() => undefined)) as PrometheusService | undefined;
    if (!found) return { ...answer, trend: sampled };
    const queries = usageQueries(
      namespace,
      trendPods.map(p => p.split('/')[1]),
    );
    try {
      const trend = (await this.trends.getOrLoad(
        // One load per step window, however the viewers' requests spread.
        `${scopeKey}|${queries.cpu}|${Math.floor(
          this.now() / (this.settings.prometheus.stepSeconds * 1000),
        )}`,
        async s => {
          const end = Math.floor(this.now() / 1000);
          const { rangeSeconds, stepSeconds } = this.settings.prometheus;
          return {
            source: 'prometheus',
            stepSeconds,
            queries,
            prometheus: prometheusLabel(found),
            points: await prometheusTrend(access.kas(s), found, queries, {
              start: end - rangeSeconds,
              end,
              stepSeconds,
            }),
          } satisfies UsageTrend;
        },
        { signal },
      )) as UsageTrend;
      return {
        ...answer,
        trend,
        prometheus: { service: prometheusLabel(found) },
      };
    } catch (error) {
      return {
        ...answer,
        trend: sampled,
        prometheus: {
          service: prometheusLabel(found),
          error: describePrometheusFailure(error),
        },
      };
    }
  }

  /** The objects the environment's live state holds (the tab's, joined: no extra reads while it is open). */
  private async liveObjects(
    live: Awaited<ReturnType<GitlabEnvironmentsService['locateLive']>>,
  ): Promise<KubernetesObject[]> {
    const { environment, release } = await this.planner.follow(live);
    try {
      return environment.snapshot().resources;
    } finally {
      release();
    }
  }

  /** The pod keys the trend sums: one pod, a workload's pods, or none asked. */
  private targetPods(
    target: UsageTarget,
    pods: PodUsage[],
    namespace: string,
  ): string[] | undefined {
    if (target.pod) return [podKey(namespace, target.pod)];
    if (target.workload) {
      const [kind, name] = target.workload.split('/');
      return pods
        .filter(p => p.workload?.kind === kind && p.workload.name === name)
        .map(p => podKey(p.namespace, p.name));
    }
    return undefined;
  }

  private kubectlFor(
    target: UsageTarget,
    namespace: string,
    labelSelector: string | undefined,
    objects: KubernetesObject[],
  ): string {
    if (target.pod) return kubectlTop({ namespace, pod: target.pod });
    if (target.workload) {
      const [kind, name] = target.workload.split('/');
      const workload = objects.find(
        o => o.kind === kind && o.metadata?.name === name,
      );
      const selector = workload && workloadSelector(workload);
      if (selector) return kubectlTop({ namespace, labelSelector: selector });
    }
    return kubectlTop({ namespace, labelSelector });
  }
}

/** What the sampler kept for the pods: their sums per sample they appear in. */
function sampledTrend(
  scope: SampledScope,
  pods: string[],
  intervalMs: number,
): UsageTrend {
  const points: UsagePoint[] = [];
  for (const sample of scope.samples) {
    const present = pods
      .map(p => sample.pods.get(p))
      .filter((v): v is [number, number] => v !== undefined);
    if (present.length === 0) continue;
    points.push({
      at: new Date(sample.at).toISOString(),
      cpu: present.reduce((s, [cpu]) => s + cpu, 0),
      memory: present.reduce((s, [, memory]) => s + memory, 0),
    });
  }
  return { source: 'sampled', stepSeconds: intervalMs / 1000, points };
}
