import { setMaxListeners } from 'events';
import { LoggerService } from '@backstage/backend-plugin-api';
import {
  GitlabEnvError,
  GitlabEnvironment,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, GitlabEnvFailure } from '../errors';
import { tokenFailure } from '../transport/InstanceProbe';
import { invalidSetting } from '../validation';
import { scopeKey } from '../locating/ownership';
import {
  assembleRead,
  EnvironmentRead,
  Judging,
} from '../assembling/assembleRead';
import { LocatedEntity } from '../locating/EnvironmentLocator';
import { AgentConnections, AgentLookup } from '../locating/agentConnection';
import { readAcrossCluster } from '../reading/clusterWideSource';
import { discoverListableKinds, ListableKind } from '../reading/discovery';
import { missingKubernetesSetting } from '../locating/kubernetesSettings';
import { ObjectSource } from '../reading/objectSource';
import { ReadBounds } from '../reading/readBounds';
import { SharedReadCache } from '../caching/sharedCache';
import { GitlabEnvTransport } from '../transport/SharedTransport';
import {
  ClusterAccess,
  GitlabEnvClusterSource,
  objectSourceOf,
} from '../reading/clusterSources';
import { explainKasRefusal } from './explainKasRefusal';

/** Discovery changes when CRDs are installed, which is rare: keep it longer. */
const DISCOVERY_TTL_MS = 5 * 60_000;

/** Where GitLab is asked about an environment's agent. */
function agentLookup(ctx: EnvironmentContext): AgentLookup {
  return {
    instance: ctx.instance,
    projectFullPath: ctx.located.project.fullPath,
    environmentName: ctx.environment.name,
    agent: ctx.environment.agent!,
  };
}

/** One environment of a located entity, with the configured instance it is read through. */
export interface EnvironmentContext {
  instance: GitlabInstanceConfig;
  located: LocatedEntity;
  environment: GitlabEnvironment;
}

/**
 * Plans the reads: which upstream reads serve which environments. Each
 * environment's read is one cache entry (coalesced, shared by the entity
 * tab and the overview, in the shared store when there is one); an
 * agent's discovery is shared by all its reads; `readAhead` serves the
 * overview's many environments of one agent with one list per kind across
 * the cluster. KAS refusals are explained (token, agent never connected)
 * and every outcome is recorded for diagnostics.
 */
export class ReadPlanner {
  private readonly connections: AgentConnections;

  constructor(
    private readonly config: GitlabEnvConfig,
    private readonly transport: GitlabEnvTransport,
    private readonly cache: SharedReadCache,
    private readonly sources: readonly GitlabEnvClusterSource[],
    private readonly judging: Judging,
    private readonly logger: LoggerService,
  ) {
    this.connections = AgentConnections.of(transport, config);
  }

  /** The cache key of an environment's read: what the upstream answer depends on. */
  readKey({ instance, located, environment }: EnvironmentContext): string {
    return `read|${instance.host}|${environment.agent?.id}|${
      environment.namespace
    }|${located.labelSelector ?? ''}|${
      environment.fluxResourcePath ?? ''
    }|${JSON.stringify(
      environment.namespaceSource?.narrowing?.markers ?? '',
    )}|${scopeKey(environment.actionScope)}`;
  }

  private readBounds(signal: AbortSignal, namespaces = 1) {
    const warnings: Array<{ warning: GitlabEnvError; namespace?: string }> = [];
    const bounds = new ReadBounds(
      this.config.limits.maxPagesPerList,
      this.config.limits.maxObjectsPerEnvironment * namespaces,
      (warning, namespace) => warnings.push({ warning, namespace }),
      signal,
    );
    return { bounds, warnings };
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
        // What GitLab knows spares KAS's 20 s search for an absent agentk.
        await this.connections.refuseDisconnected(agentLookup(ctx));
        result = await read({
          via: 'kas',
          kas: signal => this.transport.kas(instance, facts, agent, signal),
        }).catch(error => this.explainKasRefusal(ctx, error));
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

  /** An environment's objects, graph and health, from the cache or one round of reads. */
  readEnvironment(
    ctx: EnvironmentContext,
    signal?: AbortSignal,
  ): Promise<EnvironmentRead> {
    try {
      this.refuseUnreadable(ctx);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.cache.getOrLoad(
      this.readKey(ctx),
      loadSignal => this.loadEnvironment(ctx, loadSignal),
      { signal },
    );
  }

  /** One round of reads for an environment, past the cache: readEnvironment's loader. */
  loadEnvironment(
    ctx: EnvironmentContext,
    loadSignal: AbortSignal,
  ): Promise<EnvironmentRead> {
    const labelSelector = ctx.located.labelSelector;
    return this.throughAgent(ctx, async access => {
      const { bounds, warnings } = this.readBounds(loadSignal);
      const kinds = await this.listableKinds(ctx, access, loadSignal);
      const source = objectSourceOf(access, bounds, labelSelector);
      return assembleRead(
        source,
        kinds,
        ctx.environment,
        labelSelector,
        { bounds, warnings: () => warnings.map(w => w.warning) },
        this.judging,
      );
    });
  }

  /** Drops an environment's cached read (here and in the shared store): a write changed it. */
  forget(ctx: EnvironmentContext): void {
    this.cache.forget(this.readKey(ctx));
  }

  /**
   * Starts reading ahead, for the overview, the environments not cached yet:
   * those of one agent (and label selector) spread over several namespaces
   * are read with one cluster-wide list per kind (see readAcrossCluster);
   * the rest are left to their own reads. Each read is registered in the
   * cache under the key the entity tab reads, so a later or concurrent
   * read joins it and both show the same data. Returns once the reads are
   * registered, not when they finish; never throws.
   */
  readAhead(contexts: EnvironmentContext[]): void {
    const groups = new Map<string, EnvironmentContext[]>();
    for (const ctx of contexts) {
      const { environment, instance, located } = ctx;
      if (!environment.agent || !environment.namespace) continue;
      if (this.moduleSource(instance, environment)) continue;
      if (this.cache.has(this.readKey(ctx))) continue;
      const key = `${instance.host}|${environment.agent.id}|${
        located.labelSelector ?? ''
      }`;
      const group = groups.get(key) ?? [];
      group.push(ctx);
      groups.set(key, group);
    }
    for (const group of groups.values()) this.readAheadAcrossCluster(group);
  }

  private readAheadAcrossCluster(group: EnvironmentContext[]): void {
    const namespaces = new Set(group.map(g => g.environment.namespace!));
    const { clusterWideReads, clusterWideMinNamespaces } = this.config.overview;
    // Fewer namespaces cost fewer bytes read one by one than the whole
    // cluster's objects of each kind.
    if (!clusterWideReads || namespaces.size < clusterWideMinNamespaces) return;
    const first = group[0];
    const labelSelector = first.located.labelSelector;
    // Started by the first environment whose read is not cached meanwhile.
    let started:
      | Promise<{
          kinds: ListableKind[];
          source: ObjectSource;
          bounds: ReadBounds;
          warnings: Array<{ warning: GitlabEnvError; namespace?: string }>;
        }>
      | undefined;
    // The shared read runs on its own deadline: the environments' cache
    // entries each end theirs, but it serves them all.
    const readOnce = async (access: ClusterAccess) => {
      if (access.via !== 'kas') throw new Error('read ahead through KAS only');
      const signal = AbortSignal.timeout(this.config.requestDeadlineMs);
      setMaxListeners(0, signal);
      const kas = access.kas(signal);
      const kinds = await this.listableKinds(first, access, signal);
      const extraObjects = group.flatMap(({ environment: e }) => {
        const path =
          e.fluxResourcePath && parseFluxResourcePath(e.fluxResourcePath);
        return path ? [{ ...path, label: `${path.group}/${path.kind}` }] : [];
      });
      const { bounds, warnings } = this.readBounds(signal, namespaces.size);
      return {
        kinds,
        bounds,
        warnings,
        source: await readAcrossCluster(kas, kinds, {
          namespaces,
          labelSelector,
          extraObjects,
          bounds,
        }),
      };
    };
    const readShared = () => (started ??= this.throughAgent(first, readOnce));
    for (const ctx of group) {
      const e = ctx.environment;
      this.cache
        .getOrLoad(this.readKey(ctx), async () => {
          const read = await readShared();
          return assembleRead(
            read.source,
            read.kinds,
            e,
            ctx.located.labelSelector,
            {
              bounds: read.bounds,
              warnings: () =>
                read.warnings
                  .filter(
                    w =>
                      w.namespace === undefined || w.namespace === e.namespace,
                  )
                  .map(w => w.warning),
            },
            this.judging,
          );
        })
        .catch(error =>
          this.logger.debug(
            `Reading environment ${e.name} ahead failed: ${error}`,
          ),
        );
    }
  }
}
