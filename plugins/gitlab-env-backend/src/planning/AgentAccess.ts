import { GitlabEnvironment } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { untilLeft } from '../caching/cache';
import { asGitlabEnvError, GitlabEnvFailure } from '../errors';
import { scopeKey } from '../locating/ownership';
import { explainKasRefusal } from './explainKasRefusal';
import { tokenFailure } from '../transport/InstanceProbe';
import { invalidSetting } from '../validation';
import { LocatedEntity } from '../locating/EnvironmentLocator';
import { agentKey, AgentConnections } from '../locating/agentConnection';
import { discoverListableKinds, ListableKind } from '../reading/discovery';
import { missingKubernetesSetting } from '../locating/kubernetesSettings';
import { SharedReadCache } from '../caching/sharedCache';
import { GitlabEnvTransport } from '../transport/SharedTransport';
import {
  ClusterAccess,
  GitlabEnvClusterSource,
} from '../reading/clusterSources';

/** Discovery changes when CRDs are installed, which is rare: keep it longer. */
const DISCOVERY_TTL_MS = 5 * 60_000;

/** One environment of a located entity, with the configured instance it is read through. */
export interface EnvironmentContext {
  /** The catalog entity the environment is read for. */
  entityRef: string;
  instance: GitlabInstanceConfig;
  located: LocatedEntity;
  environment: GitlabEnvironment;
  /** The call's signal, its deadline included: what the context's upstream reads carry. */
  signal?: AbortSignal;
}

/**
 * How an environment's cluster is reached: through a backend module's
 * source or KAS (after the instance check, and unless GitLab says the
 * agent is not connected: AgentConnections), the agent's discovery (one
 * cached entry per agent, shared by every read), KAS refusals explained
 * (token, agent never connected) and every outcome recorded for
 * diagnostics. What is read through it is planned by LivePlanner.
 */
export class AgentAccess {
  private readonly explanations = new WeakMap<object, Promise<never>>();
  /** Agents (`discovery|host|id`) whose discovery is under way here. */
  private readonly discovering = new Set<string>();

  constructor(
    private readonly transport: GitlabEnvTransport,
    private readonly cache: SharedReadCache,
    private readonly sources: readonly GitlabEnvClusterSource[],
    /** What GitLab says of the agents' connections (the plugin's one AgentConnections). */
    private readonly connections: AgentConnections,
  ) {}

  /** What an environment's read depends on: environments with one key share one state (LiveTarget.readKey). */
  readKey({ instance, located, environment }: EnvironmentContext): string {
    return `read|${instance.host}|${environment.agent?.id}|${
      environment.namespace
    }|${located.labelSelector ?? ''}|${
      environment.fluxResourcePath ?? ''
    }|${JSON.stringify(
      environment.namespaceSource?.narrowing?.markers ?? '',
    )}|${scopeKey(environment.actionScope)}`;
  }

  private moduleSource(
    instance: GitlabInstanceConfig,
    environment: GitlabEnvironment,
  ) {
    const target = { host: instance.host, agent: environment.agent! };
    const source = this.sources.find(s => s.serves(target));
    return source && { source, target };
  }

  /** Fails with the reason an environment cannot be read, when its settings say so. */
  refuseUnreadable(ctx: EnvironmentContext): void {
    const missing = missingKubernetesSetting(ctx.environment);
    if (!missing) return;
    // A value GitLab gave that failed validation was dropped: name it, not
    // the gap it left.
    const refused = invalidSetting(ctx.environment);
    const reason = refused ? new GitlabEnvFailure(refused) : missing;
    this.transport.diagnostics.failure(
      ctx.instance.host,
      reason.detail,
      `${ctx.located.project.fullPath}: ${ctx.environment.name}`,
    );
    throw reason;
  }

  /** Names the cause of a KAS refusal (explainKasRefusal). */
  private explainKasRefusal(
    { instance, located, environment }: EnvironmentContext,
    error: unknown,
  ): Promise<never> {
    return explainKasRefusal(
      this.transport,
      instance,
      {
        projectFullPath: located.project.fullPath,
        environmentName: environment.name,
      },
      environment.agent!,
      error,
    );
  }

  /**
   * A refusal is explained once: the same failure met again (a cached
   * discovery, an environment's held state) gets the same explanation,
   * without asking GitLab again.
   */
  private explained(ctx: EnvironmentContext, error: unknown): Promise<never> {
    if (typeof error !== 'object' || error === null)
      return this.explainKasRefusal(ctx, error);
    let explanation = this.explanations.get(error);
    if (!explanation) {
      explanation = this.explainKasRefusal(ctx, error);
      explanation.catch(() => undefined);
      this.explanations.set(error, explanation);
    }
    return explanation;
  }

  /**
   * Runs an agent's read through its cluster access, names the cause of a
   * KAS refusal and records the outcome. `signal` (the call's, its deadline
   * included) also ends the wait for the instance check and GitLab's word
   * on the agent's connection: both are shared loads that carry no
   * caller's signal, and a GitLab slow to answer them held the answer past
   * the request's deadline.
   */
  throughAgent<T>(
    ctx: EnvironmentContext,
    signal: AbortSignal | undefined,
    read: (access: ClusterAccess) => Promise<T>,
  ): Promise<T> {
    const { instance, located, environment } = ctx;
    const agent = environment.agent!;
    return this.recorded(ctx, async () => {
      const module = this.moduleSource(instance, environment);
      if (module) return read({ via: 'module', ...module });
      const facts = await untilLeft(
        this.transport.usableInstance(instance),
        signal,
      );
      const kasScope = tokenFailure(instance.host, facts, 'k8s_proxy');
      if (kasScope) throw kasScope;
      // What GitLab knows spares KAS's 20 s search for an absent agentk.
      await untilLeft(
        this.connections.refuseDisconnected({
          instance,
          projectFullPath: located.project.fullPath,
          environmentName: environment.name,
          agent,
        }),
        signal,
      );
      return read({
        via: 'kas',
        kas: kasSignal => this.transport.kas(instance, facts, agent, kasSignal),
      }).catch(error => this.explained(ctx, error));
    });
  }

  /**
   * The outcome of a read started on what `throughAgent` reached (the
   * instance and the agent's connection checked then), a KAS refusal
   * explained and recorded as there. Not checked again: once the read is
   * under way a check could only hold its answer, past the request's
   * deadline when GitLab is slow to give it.
   */
  readOutcome<T>(
    ctx: EnvironmentContext,
    access: ClusterAccess,
    read: Promise<T>,
  ): Promise<T> {
    return this.recorded(ctx, () =>
      access.via === 'kas'
        ? read.catch(error => this.explained(ctx, error))
        : read,
    );
  }

  /** The agent's outcome of `work`, recorded for diagnostics. */
  private async recorded<T>(
    { instance, located, environment }: EnvironmentContext,
    work: () => Promise<T>,
  ): Promise<T> {
    const agent = environment.agent!;
    const { host } = instance;
    try {
      const result = await work();
      this.transport.diagnostics.agentResult(host, agent, 'ok');
      return result;
    } catch (error) {
      const detail = asGitlabEnvError(error);
      this.transport.diagnostics.agentResult(host, agent, detail.code);
      this.transport.diagnostics.failure(
        host,
        detail,
        `${located.project.fullPath}: ${environment.name} (agent ${agent.name})`,
      );
      throw error;
    }
  }

  /**
   * Discovery is shared by every read of an agent, so it runs on its own
   * cache entry's signal. `onAsking` runs when this call is the one that
   * asks the cluster: neither cached nor found in the replicas' store.
   */
  listableKinds(
    ctx: EnvironmentContext,
    access: ClusterAccess,
    signal?: AbortSignal,
    onAsking?: () => void,
  ): Promise<ListableKind[]> {
    const key = this.discoveryKey(ctx);
    return this.cache.getOrLoad<ListableKind[]>(
      key,
      loadSignal => {
        // Asked of the cluster (not found in the replicas' store).
        this.discovering.add(key);
        onAsking?.();
        return (
          access.via === 'kas'
            ? discoverListableKinds(access.kas(loadSignal))
            : access.source.kinds(access.target, { signal: loadSignal })
        ).finally(() => this.discovering.delete(key));
      },
      { ttlMs: DISCOVERY_TTL_MS, signal },
    );
  }

  /**
   * Whether the environment's agent's discovery is under way: asked of the
   * cluster and not answered yet. One a call starts begins a microtask
   * after it (CoalescingCache), or after the replicas' store missed.
   */
  isDiscovering(ctx: EnvironmentContext): boolean {
    return this.discovering.has(this.discoveryKey(ctx));
  }

  private discoveryKey({ instance, environment }: EnvironmentContext) {
    return `discovery|${agentKey(instance.host, environment.agent!.id)}`;
  }
}
