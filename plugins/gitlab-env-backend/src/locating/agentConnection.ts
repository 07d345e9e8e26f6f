import { GitlabAgentRef } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { SharedReadCache } from '../caching/sharedCache';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { failure, GitlabEnvFailure } from '../errors';
import type { AgentActivity } from '../transport/gitlabClient';
import { GitlabEnvTransport } from '../transport/SharedTransport';

/**
 * An agent whose token agentk used less than this long ago is connected,
 * as GitLab's own agents list says (`ACTIVE_CONNECTION_TIME`,
 * app/assets/javascripts/clusters_list/constants.js: "Connected" below it,
 * "Not connected" above, "Never connected" without a use).
 */
export const ACTIVE_CONNECTION_MS = 480_000;

/**
 * What GitLab knows of an agent's connection. `unknown` when it shows the
 * token's user neither a live connection nor the agent's tokens: then only
 * KAS can tell, by trying.
 */
export type AgentConnectionState =
  | { state: 'connected' }
  | { state: 'notConnected'; lastContactAt: string }
  | { state: 'neverConnected' }
  | { state: 'unknown' };

/** GitLab's answer about an agent, read the way GitLab's own pages read it. */
export function connectionStateOf(
  activity: AgentActivity | undefined,
  now: number,
): AgentConnectionState {
  if (!activity) return { state: 'unknown' };
  if ((activity.connections ?? 0) > 0) return { state: 'connected' };
  // No connection listed may only mean the user may not see them: the
  // tokens decide, when they are shown.
  if (activity.tokensShown === 0) return { state: 'unknown' };
  const lastContactAt = activity.tokenLastUsedAt;
  if (!lastContactAt) return { state: 'neverConnected' };
  return now - Date.parse(lastContactAt) < ACTIVE_CONNECTION_MS
    ? { state: 'connected' }
    : { state: 'notConnected', lastContactAt };
}

function duration(ms: number): string {
  const units: Array<[string, number]> = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ];
  for (const [unit, size] of units) {
    const count = Math.floor(ms / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'}`;
  }
  return 'less than a minute';
}

/**
 * Why KAS cannot reach an agent, when GitLab's answer says so; undefined
 * for a connected agent or one GitLab says nothing about.
 */
export function connectionRefusal(
  state: AgentConnectionState,
  agent: GitlabAgentRef,
  now: number,
): GitlabEnvFailure | undefined {
  const page = agent.webUrl ? ` (${agent.webUrl})` : '';
  if (state.state === 'neverConnected')
    return failure(
      'AGENT_NEVER_CONNECTED',
      `The agent ${agent.name} has never connected to GitLab: no agentk has used its token, so KAS cannot reach its cluster and GitLab holds none of its user_access authorizations yet.`,
      {
        hint: `Install agentk in the cluster with the agent's token (see the agent's page in GitLab${page}); user_access takes effect once it has connected.`,
      },
    );
  if (state.state === 'notConnected')
    return failure(
      'AGENT_NOT_CONNECTED',
      `The agent ${
        agent.name
      } is not connected to GitLab: its agentk last connected ${duration(
        now - Date.parse(state.lastContactAt),
      )} ago (${
        state.lastContactAt
      }), so KAS cannot reach its cluster. GitLab says so; KAS was not asked.`,
      {
        hint: `Check that agentk runs in the cluster and can reach GitLab (its pod's logs say why not); the agent's page in GitLab shows its connections${page}. The plugin checks again every few seconds while the page is open.`,
      },
    );
  return undefined;
}

/** One agent of one GitLab instance, as every per-agent map of the plugin keys it. */
export function agentKey(host: string, agentId: string | number): string {
  return `${host}|${agentId}`;
}

/** Where GitLab is asked about an agent: an environment that uses it. */
export interface AgentLookup {
  instance: GitlabInstanceConfig;
  projectFullPath: string;
  environmentName: string;
  agent: GitlabAgentRef;
}

interface Entry {
  /** The last settled answer, while a newer one may load. */
  state?: AgentConnectionState;
  checkedAt: number;
  loading?: Promise<AgentConnectionState>;
}

/** What the replicas share of an agent's answer (SharedReadCache.sharedStore). */
interface SharedAnswer {
  state: AgentConnectionState;
  checkedAt: number;
}

export interface AgentConnectionsOptions {
  /** An answer younger than this is served as it is. */
  freshMs: number;
  /** An older one is still served, and checked again in the background, until this age. */
  maxAgeMs: number;
  now?: () => number;
  /**
   * The replicas' shared store, when `backend.cache` configures one: an
   * answer another replica got from GitLab is taken while fresh.
   */
  shared?: ReturnType<SharedReadCache['sharedStore']>;
}

const shared = new WeakMap<GitlabEnvTransport, AgentConnections>();

/**
 * Agents' connection states as GitLab tells them, asked before KAS: an
 * agent GitLab says is not connected is refused at once instead of after
 * KAS's 20 s tunnel search. One per transport (so per plugin): the
 * environment reads, the locator and the CI access service share it.
 * Answers are kept briefly and re-checked in the background once they
 * are a few seconds old, so a reconnected agent is read again soon and
 * no read waits for the re-check. An agent GitLab says is connected, or
 * says nothing about, is left to KAS, whose own errors then say why.
 */
export class AgentConnections {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(
    private readonly transport: GitlabEnvTransport,
    private readonly options: AgentConnectionsOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The plugin's one AgentConnections for this transport, sharing answers through the plugin's cache's store. */
  static of(
    transport: GitlabEnvTransport,
    config: Pick<GitlabEnvConfig, 'transientCacheSeconds' | 'cacheTtlSeconds'>,
    cache: SharedReadCache,
  ): AgentConnections {
    let connections = shared.get(transport);
    if (!connections) {
      connections = new AgentConnections(transport, {
        freshMs: config.transientCacheSeconds * 1000,
        maxAgeMs: config.cacheTtlSeconds * 1000,
        shared: cache.sharedStore(),
      });
      shared.set(transport, connections);
    }
    return connections;
  }

  private keyOf(instance: GitlabInstanceConfig, agent: GitlabAgentRef) {
    return agentKey(instance.host, agent.id);
  }

  /** Shares an answer from GitLab with the other replicas (not "unknown": that is no answer). */
  private share(key: string, answer: SharedAnswer) {
    if (answer.state.state !== 'unknown')
      this.options.shared?.set(
        `agentconn|${key}`,
        answer,
        this.options.maxAgeMs,
      );
  }

  private load(
    key: string,
    lookup: AgentLookup,
  ): Promise<AgentConnectionState> {
    const entry = this.entries.get(key) ?? { checkedAt: 0 };
    if (entry.loading) return entry.loading;
    const { instance, projectFullPath, environmentName } = lookup;
    const store = this.options.shared;
    const storeKey = `agentconn|${key}`;
    const fromGitlab = async (): Promise<SharedAnswer> => {
      const state = await this.transport
        .gitlab(instance)
        .agentActivity(projectFullPath, environmentName)
        .then(
          activity => connectionStateOf(activity, this.now()),
          // GitLab failing to say is no answer: KAS decides.
          (): AgentConnectionState => ({ state: 'unknown' }),
        );
      const answer = { state, checkedAt: this.now() };
      this.share(key, answer);
      return answer;
    };
    const answer = store
      ? // Another replica's answer, while fresh.
        store
          .get<SharedAnswer>(storeKey)
          .then(kept =>
            kept && this.now() - kept.checkedAt < this.options.freshMs
              ? kept
              : fromGitlab(),
          )
      : fromGitlab();
    const loading = answer.then(({ state, checkedAt }) => {
      entry.state = state;
      entry.checkedAt = checkedAt;
      entry.loading = undefined;
      return state;
    });
    entry.loading = loading;
    this.entries.set(key, entry);
    this.evictOld();
    return loading;
  }

  private evictOld() {
    const oldest = this.now() - this.options.maxAgeMs;
    for (const [key, entry] of this.entries)
      if (!entry.loading && entry.checkedAt < oldest) this.entries.delete(key);
  }

  /**
   * The agent's state: a kept answer (checked again in the background once
   * older than `freshMs`), else one GitLab request, shared by concurrent
   * callers. Never rejects; a caller whose signal ends stops waiting.
   */
  state(
    lookup: AgentLookup,
    signal?: AbortSignal,
  ): Promise<AgentConnectionState> {
    const key = this.keyOf(lookup.instance, lookup.agent);
    const entry = this.entries.get(key);
    const age = entry?.state ? this.now() - entry.checkedAt : Infinity;
    if (entry?.state && age < this.options.maxAgeMs) {
      if (age >= this.options.freshMs) void this.load(key, lookup);
      return Promise.resolve(entry.state);
    }
    const loading = this.load(key, lookup);
    if (!signal) return loading;
    return new Promise(resolve => {
      const leave = () => resolve({ state: 'unknown' });
      if (signal.aborted) leave();
      signal.addEventListener('abort', leave, { once: true });
      void loading.then(state => {
        signal.removeEventListener('abort', leave);
        resolve(state);
      });
    });
  }

  /**
   * Takes what an environments listing showed of its agents' connections
   * (`activity` by agent id: the fields `agentActivity` asks, read by the
   * same rule) as GitLab's answer now, so the reads that follow the
   * listing ask nothing more; agents it did not show are asked (prefetch).
   * An answer being loaded meanwhile is left to settle.
   */
  seed(
    instance: GitlabInstanceConfig,
    projectFullPath: string,
    environments: ReadonlyArray<{ name: string; agent?: GitlabAgentRef }>,
    activity: Readonly<Record<string, AgentActivity>>,
  ): void {
    const unseen = environments.filter(({ agent }) => {
      const shown = agent && activity[agent.id];
      if (!shown) return true;
      const key = this.keyOf(instance, agent);
      const entry = this.entries.get(key) ?? { checkedAt: 0 };
      if (entry.loading) return false;
      const answer = {
        state: connectionStateOf(shown, this.now()),
        checkedAt: this.now(),
      };
      Object.assign(entry, answer);
      this.entries.set(key, entry);
      this.share(key, answer);
      return false;
    });
    this.prefetch(instance, projectFullPath, unseen);
    this.evictOld();
  }

  /**
   * Starts asking about each agent of these environments that no answer is
   * kept for, so the reads that follow a listing find it ready.
   */
  prefetch(
    instance: GitlabInstanceConfig,
    projectFullPath: string,
    environments: ReadonlyArray<{ name: string; agent?: GitlabAgentRef }>,
  ): void {
    const seen = new Set<string>();
    for (const { name, agent } of environments) {
      if (!agent || seen.has(agent.id)) continue;
      seen.add(agent.id);
      void this.state({
        instance,
        projectFullPath,
        environmentName: name,
        agent,
      });
    }
  }

  /** Fails with why KAS cannot reach the agent when GitLab says so; resolves otherwise. */
  async refuseDisconnected(
    lookup: AgentLookup,
    signal?: AbortSignal,
  ): Promise<void> {
    const refusal = connectionRefusal(
      await this.state(lookup, signal),
      lookup.agent,
      this.now(),
    );
    if (refusal) throw refusal;
  }
}
