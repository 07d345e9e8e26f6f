import { GitlabAgentRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { concurrencyLimit, Limit } from './concurrencyLimit';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { DiagnosticsRecorder } from './DiagnosticsRecorder';
import { failure, GitlabEnvFailure } from '../errors';
import {
  InstanceFacts,
  InstanceProbe,
  SharedFacts,
  tokenFailure,
} from './InstanceProbe';
import { GitlabClient } from './gitlabClient';
import { KasClient } from './kasClient';
import { GitlabRestClient } from './gitlabRest';

export type { Limit };

/**
 * How the backend reaches GitLab and KAS: clients on the configured token,
 * the concurrency budgets every caller shares (per instance, and per agent
 * within it, sized to agentk's tunnel pool), the instance check and what
 * upstream failures were seen (diagnostics). One per plugin: the resource
 * reads, the live watches and the CI access service draw on the same
 * budgets.
 */
export interface GitlabEnvTransport {
  readonly diagnostics: DiagnosticsRecorder;
  /** The budget of every GitLab request to an instance (KAS included). */
  instanceLimit(host: string): Limit;
  /** The budget of KAS requests to one agent, within its instance's. */
  agentLimit(host: string, agentId: string): Limit;
  /**
   * Holds one slot of the agent's budget for a stream (a log read) until
   * the returned function is called, as a read holds one while it is in
   * flight. `followed` streams, which last until their reader leaves,
   * take at most half the agent's slots, the rest staying for reads and
   * actions: past that it fails with TOO_MANY_STREAMS at once.
   */
  holdStream(
    host: string,
    agent: GitlabAgentRef,
    options: { followed: boolean },
  ): Promise<() => void>;
  probe(instance: GitlabInstanceConfig): InstanceProbe;
  /** Shares successful instance checks with other replicas through their common store. */
  shareInstanceChecks?(store: SharedFacts | undefined): void;
  /** The instance's facts; fails with the token's or the version's problem. */
  usableInstance(instance: GitlabInstanceConfig): Promise<InstanceFacts>;
  /** Rethrows a GitLab failure, explained better by the instance check when it can be. */
  explainGitlabFailure(
    instance: GitlabInstanceConfig,
    error: unknown,
  ): Promise<never>;
  gitlab(
    instance: GitlabInstanceConfig,
    options?: { signal?: AbortSignal; version?: string },
  ): GitlabClient;
  /**
   * The KAS proxy URL the instance check found (or the configured one),
   * without a trailing slash; KAS_UNAVAILABLE when there is none.
   */
  kasProxyUrlOf(instance: GitlabInstanceConfig, facts: InstanceFacts): string;
  /** A KAS client for an agent, at the URL the instance check found. */
  kas(
    instance: GitlabInstanceConfig,
    facts: InstanceFacts,
    agent: GitlabAgentRef,
    signal?: AbortSignal,
  ): KasClient;
  /**
   * The REST client (projects, protected branches, repository files) on
   * the configured token; its requests carry `signal` unless one names its own.
   */
  rest(instance: GitlabInstanceConfig, signal?: AbortSignal): GitlabRestClient;
}

/** The plugin's transport: see GitlabEnvTransport. */
export class SharedTransport implements GitlabEnvTransport {
  readonly diagnostics = new DiagnosticsRecorder();
  private readonly instanceLimits = new Map<string, Limit>();
  private readonly agentLimits = new Map<string, Limit>();
  /** Streams holding a slot of each agent's budget (holdStream). */
  private readonly heldStreams = new Map<string, number>();
  private readonly probes = new Map<string, InstanceProbe>();
  private sharedFacts?: SharedFacts;
  /** Agents KAS answered for lately: their requests need no tunnel-search allowance. */
  private readonly answeringAgents = new Set<string>();

  constructor(private readonly config: GitlabEnvConfig) {}

  private upstreamOptions(signal?: AbortSignal) {
    return { signal, maxBytes: this.config.limits.maxResponseBytes };
  }

  instanceLimit(host: string): Limit {
    let limit = this.instanceLimits.get(host);
    if (!limit) {
      limit = concurrencyLimit(this.config.concurrency.perInstance);
      this.instanceLimits.set(host, limit);
    }
    return limit;
  }

  agentLimit(host: string, agentId: string): Limit {
    const key = `${host}|${agentId}`;
    let limit = this.agentLimits.get(key);
    if (!limit) {
      const instance = this.instanceLimit(host);
      const agent = concurrencyLimit(this.config.concurrency.perAgent);
      limit = fn => agent(() => instance(fn));
      this.agentLimits.set(key, limit);
    }
    return limit;
  }

  holdStream(
    host: string,
    agent: GitlabAgentRef,
    options: { followed: boolean },
  ): Promise<() => void> {
    const key = `${host}|${agent.id}`;
    const held = this.heldStreams.get(key) ?? 0;
    const share = Math.max(1, Math.floor(this.config.concurrency.perAgent / 2));
    if (options.followed && held >= share)
      return Promise.reject(
        failure(
          'TOO_MANY_STREAMS',
          `Agent ${agent.name} already streams ${held} followed logs, half of its ${this.config.concurrency.perAgent} request slots (gitlabEnv.concurrency.perAgent): the rest stay for reads, watches' lists and actions.`,
          {
            hint: 'Close a followed log (another tab, another pod) and try again.',
          },
        ),
      );
    if (options.followed) this.heldStreams.set(key, held + 1);
    let finish!: () => void;
    const finished = new Promise<void>(resolve => {
      finish = resolve;
    });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (options.followed)
        this.heldStreams.set(key, (this.heldStreams.get(key) ?? 1) - 1);
      finish();
    };
    return new Promise(acquired => {
      // The slot is held while `finished` is pending: reads wait behind it
      // as behind any request in flight.
      this.agentLimit(
        host,
        agent.id,
      )(async () => {
        acquired(release);
        await finished;
      }).catch(() => undefined);
    });
  }

  probe(instance: GitlabInstanceConfig): InstanceProbe {
    let probe = this.probes.get(instance.host);
    if (!probe) {
      probe = new InstanceProbe(
        instance,
        this.config.requestTimeoutMs,
        this.instanceLimit(instance.host),
      );
      if (this.sharedFacts) probe.shareThrough(this.sharedFacts);
      this.probes.set(instance.host, probe);
    }
    return probe;
  }

  shareInstanceChecks(store: SharedFacts | undefined) {
    if (!store) return;
    this.sharedFacts = store;
    this.probes.forEach(probe => probe.shareThrough(store));
  }

  /**
   * Every read needs a usable token and GitLab 16.4+: the facts, or the
   * token's or the version's problem.
   */
  async usableInstance(instance: GitlabInstanceConfig): Promise<InstanceFacts> {
    const facts = await this.probe(instance).facts();
    const problem =
      tokenFailure(instance.host, facts, 'read_api') ??
      InstanceProbe.unsupported(instance.host, facts.version);
    if (problem) throw problem;
    return facts;
  }

  /**
   * After GitLab refused the token or a query, check the instance again: a
   * token that expired or an upgrade since the last check explains it better
   * than the refusal itself.
   */
  async explainGitlabFailure(
    instance: GitlabInstanceConfig,
    error: unknown,
  ): Promise<never> {
    const code = error instanceof GitlabEnvFailure && error.detail.code;
    if (code === 'GITLAB_UNAUTHORIZED' || code === 'UPSTREAM_MALFORMED') {
      const probe = this.probe(instance);
      probe.invalidate();
      const facts = await probe.facts().catch(() => undefined);
      const better = facts && tokenFailure(instance.host, facts, 'read_api');
      if (better) throw better;
    }
    throw error;
  }

  gitlab(
    instance: GitlabInstanceConfig,
    options: { signal?: AbortSignal; version?: string } = {},
  ): GitlabClient {
    return new GitlabClient(
      instance,
      this.config.requestTimeoutMs,
      this.instanceLimit(instance.host),
      options.version ?? this.probe(instance).knownVersion(),
      this.upstreamOptions(options.signal),
    );
  }

  kasProxyUrlOf(instance: GitlabInstanceConfig, facts: InstanceFacts): string {
    const url = facts.kasUrl;
    if (!url) {
      throw failure(
        'KAS_UNAVAILABLE',
        facts.kasEnabled
          ? `GitLab (${instance.host}) did not say where its agent server (KAS) is.`
          : `The GitLab instance ${instance.host} has the agent server (KAS) disabled.`,
        {
          hint: 'Enable KAS on the instance, or set gitlabEnv.instances[].kasProxyUrl.',
        },
      );
    }
    return url.replace(/\/+$/, '');
  }

  kas(
    instance: GitlabInstanceConfig,
    facts: InstanceFacts,
    agent: GitlabAgentRef,
    signal?: AbortSignal,
  ): KasClient {
    return this.kasAt(
      this.kasProxyUrlOf(instance, facts),
      instance,
      agent,
      signal,
    );
  }

  rest(instance: GitlabInstanceConfig, signal?: AbortSignal): GitlabRestClient {
    return new GitlabRestClient(
      instance,
      this.config.requestTimeoutMs,
      this.instanceLimit(instance.host),
      signal,
    );
  }

  private kasAt(
    kasProxyUrl: string,
    instance: GitlabInstanceConfig,
    agent: GitlabAgentRef,
    signal?: AbortSignal,
  ): KasClient {
    // KAS alone decides whether the token's user may use the agent:
    // user_access authorizes users, not the project whose environment this
    // is, so Project.userAccessAuthorizedAgents cannot tell in advance.
    const key = `${instance.host}|${agent.id}`;
    const answered = this.answeringAgents.has(key);
    return new KasClient(
      { kasProxyUrl, token: instance.token!, agent },
      // Until the agent answered, a request may wait in KAS's tunnel search.
      answered
        ? this.config.requestTimeoutMs
        : Math.max(
            this.config.requestTimeoutMs,
            this.config.kasFirstRequestTimeoutMs,
          ),
      this.agentLimit(instance.host, agent.id),
      this.upstreamOptions(signal),
      {
        onAnswer: () => this.answeringAgents.add(key),
        onTimeout: () => this.answeringAgents.delete(key),
      },
    );
  }
}
