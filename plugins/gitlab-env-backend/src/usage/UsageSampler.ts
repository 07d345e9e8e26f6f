import { LoggerService } from '@backstage/backend-plugin-api';
import {
  GitlabEnvError,
  PodMetricsObject,
  parseQuantity,
  podKey,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError } from '../errors';
import type { PodMetricsRead } from './podMetrics';

/** One sample of a scope: each pod's CPU (cores) and memory (bytes). */
export interface UsageSample {
  at: number;
  pods: Map<string, [number, number]>;
}

/** What a scope holds: its latest metrics read and the samples kept. */
export interface SampledScope {
  latest?: PodMetricsRead;
  /** Why the latest sample failed (agent not connected, ...); the samples before it stay. */
  error?: GitlabEnvError;
  samples: UsageSample[];
  sampledAt?: number;
}

export interface UsageSamplerSettings {
  /** Between two samples of a scope (metrics-server's resolution is 15 s). */
  intervalMs: number;
  /** Samples kept per scope: the sampled trend's length. */
  keepSamples: number;
  /** A scope nobody asked for this long stops sampling and forgets its samples. */
  graceMs: number;
}

interface HeldScope extends SampledScope {
  read: (signal: AbortSignal) => Promise<PodMetricsRead>;
  lastAskedAt: number;
  first: Promise<void>;
  timer?: NodeJS.Timeout;
  controller: AbortController;
  sampling?: Promise<void>;
}

function sampleOf(at: number, items: PodMetricsObject[]): UsageSample {
  const pods = new Map<string, [number, number]>();
  for (const item of items) {
    const { namespace, name } = item.metadata ?? {};
    if (!namespace || !name) continue;
    let cpu = 0;
    let memory = 0;
    for (const container of item.containers ?? []) {
      cpu += parseQuantity(container.usage?.cpu) ?? 0;
      memory += parseQuantity(container.usage?.memory) ?? 0;
    }
    pods.set(podKey(namespace, name), [cpu, memory]);
  }
  return { at, pods };
}

/**
 * Samples metrics.k8s.io once per scope for every viewer, as the live
 * planner shares one informer per agent scope: a scope (agent, label
 * selector, namespace) is sampled every `intervalMs` from the first viewer
 * asking while someone keeps asking, then stops after `graceMs`. Viewers
 * read what the scope holds; a hundred viewers cost the upstream what one
 * does.
 */
export class UsageSampler {
  private readonly scopes = new Map<string, HeldScope>();
  private upstreamReads = 0;

  constructor(
    private readonly settings: UsageSamplerSettings,
    private readonly logger: LoggerService,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The scope's samples, sampling it from now on if nobody did; waits for
   * the first sample of a new scope only.
   */
  async join(
    key: string,
    read: (signal: AbortSignal) => Promise<PodMetricsRead>,
  ): Promise<SampledScope> {
    let scope = this.scopes.get(key);
    if (!scope) {
      const created: HeldScope = {
        read,
        samples: [],
        lastAskedAt: this.now(),
        controller: new AbortController(),
        first: Promise.resolve(),
      };
      created.first = this.sample(key, created);
      this.scopes.set(key, created);
      this.schedule(key, created);
      scope = created;
    }
    scope.lastAskedAt = this.now();
    await scope.first;
    return scope;
  }

  private schedule(key: string, scope: HeldScope) {
    scope.timer = setTimeout(() => {
      if (this.scopes.get(key) !== scope) return;
      if (this.now() - scope.lastAskedAt >= this.settings.graceMs) {
        this.drop(key, scope);
        return;
      }
      void this.sample(key, scope).finally(() => this.schedule(key, scope));
    }, this.settings.intervalMs);
    scope.timer.unref?.();
  }

  private drop(key: string, scope: HeldScope) {
    if (scope.timer) clearTimeout(scope.timer);
    scope.controller.abort();
    this.scopes.delete(key);
    this.logger.debug(`Usage: stopped sampling ${key}`);
  }

  private sample(key: string, scope: HeldScope): Promise<void> {
    scope.sampling ??= (async () => {
      this.upstreamReads += 1;
      try {
        const read = await scope.read(scope.controller.signal);
        const at = this.now();
        scope.latest = read;
        scope.error = undefined;
        scope.sampledAt = at;
        if (read.metrics.available) {
          scope.samples.push(sampleOf(at, read.items));
          if (scope.samples.length > this.settings.keepSamples)
            scope.samples.splice(
              0,
              scope.samples.length - this.settings.keepSamples,
            );
        }
      } catch (error) {
        scope.error = asGitlabEnvError(error);
        this.logger.debug(
          `Usage: sampling ${key} failed: ${scope.error.message}`,
        );
      } finally {
        scope.sampling = undefined;
      }
    })();
    return scope.sampling;
  }

  /** Upstream reads so far and scopes held, for the benchmark and tests. */
  stats() {
    return { upstreamReads: this.upstreamReads, scopes: this.scopes.size };
  }

  close() {
    for (const [key, scope] of [...this.scopes]) this.drop(key, scope);
  }
}
