import { GitlabEnvironment } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import { tokenFailure } from '../transport/InstanceProbe';
import { invalidSetting } from '../validation';
import { LocatedEntity } from '../locating/EnvironmentLocator';
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
}

/**
 * How an environment's cluster is reached: through a backend module's
 * source or KAS (after the instance check), the agent's discovery (one
 * cached entry per agent, shared by every read), KAS refusals explained
 * (token, agent never connected) and every outcome recorded for
 * diagnostics. What is read through it is planned by LivePlanner.
 */
export class AgentAccess {
  private readonly explanations = new WeakMap<object, Promise<never>>();

  constructor(
    private readonly transport: GitlabEnvTransport,
    private readonly cache: SharedReadCache,
    private readonly sources: readonly GitlabEnvClusterSource[],
  ) {}

  /** What an environment's read depends on: environments with one key share one state (LiveTarget.readKey). */
  readKey({ instance, located, environment }: EnvironmentContext): string {
    return `read|${instance.host}|${environment.agent?.id}|${
      environment.namespace
    }|${located.labelSelector ?? ''}|${
      environment.fluxResourcePath ?? ''
    }|${JSON.stringify(environment.namespaceSource?.narrowing?.markers ?? '')}`;
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

  /**
   * KAS answers one 401 for many causes. Before calling it "not shared", rule
   * out what the instance check and GitLab's view of the agent can tell:
   * the token (expired, revoked, no k8s_proxy: agent_helpers.rb
   * validate_and_save_access_token!) and an agent that never connected, for
   * which GitLab holds no authorization yet (refresh_service.rb).
   */
  private async explainKasRefusal(
    ctx: EnvironmentContext,
    error: unknown,
  ): Promise<never> {
    if (
      !(error instanceof GitlabEnvFailure) ||
      error.detail.code !== 'AGENT_NOT_SHARED'
    ) {
      throw error;
    }
    const { instance, located, environment } = ctx;
    const probe = this.transport.probe(instance);
    probe.invalidate();
    const facts = await probe.facts().catch(() => undefined);
    const tokenProblem = facts && tokenFailure(instance.host, facts);
    if (tokenProblem) throw tokenProblem;
    const activity = await this.transport
      .gitlab(instance, { version: facts?.version })
      .agentActivity(located.project.fullPath, environment.name)
      .catch(() => undefined);
    if (activity && activity.connections === 0 && !activity.tokenLastUsedAt) {
      const agent = environment.agent!;
      throw failure(
        'AGENT_NEVER_CONNECTED',
        `The agent ${agent.name} has never connected to GitLab: no agentk has used its token, so GitLab holds none of its user_access authorizations yet.`,
        {
          hint: `Install agentk in the cluster with the agent's token (see the agent's page in GitLab${
            agent.webUrl ? `: ${agent.webUrl}` : ''
          }); user_access takes effect once it has connected.`,
        },
      );
    }
    throw error;
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
   * KAS refusal and records the outcome.
   */
  async throughAgent<T>(
    ctx: EnvironmentContext,
    read: (access: ClusterAccess) => Promise<T>,
  ): Promise<T> {
    const { instance, located, environment } = ctx;
    const agent = environment.agent!;
    const { host } = instance;
    try {
      const module = this.moduleSource(instance, environment);
      let result: T;
      if (module) {
        result = await read({ via: 'module', ...module });
      } else {
        const facts = await this.transport.usableInstance(instance);
        const kasScope = tokenFailure(host, facts, 'k8s_proxy');
        if (kasScope) throw kasScope;
        result = await read({
          via: 'kas',
          kas: signal => this.transport.kas(instance, facts, agent, signal),
        }).catch(error => this.explained(ctx, error));
      }
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

  /** Discovery is shared by every read of an agent, so it runs on its own cache entry's signal. */
  listableKinds(
    ctx: EnvironmentContext,
    access: ClusterAccess,
    signal?: AbortSignal,
  ): Promise<ListableKind[]> {
    const agent = ctx.environment.agent!;
    return this.cache.getOrLoad<ListableKind[]>(
      `discovery|${ctx.instance.host}|${agent.id}`,
      loadSignal =>
        access.via === 'kas'
          ? discoverListableKinds(access.kas(loadSignal))
          : access.source.kinds(access.target, { signal: loadSignal }),
      { ttlMs: DISCOVERY_TTL_MS, signal },
    );
  }
}
