import { CacheService, LoggerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import {
  ActionTarget,
  DesiredStateComparison,
  DiagnosticsResponse,
  EntityEnvironmentsResponse,
  EnvironmentActionScope,
  EnvironmentDesiredStateResponse,
  EnvironmentResourcesResponse,
  GitlabEnvironment,
  GitlabEnvError,
  groupOfApiVersion,
  HealthRuleSet,
  HealthSummary,
  RelationSet,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvConfig } from '../config';
import {
  asGitlabEnvError,
  failure,
  GitlabEnvFailure,
  isDefinitiveFailure,
} from '../errors';
import { MINIMUM_GITLAB_VERSION } from '../transport/gitlabVersion';
import { InstanceFacts, InstanceProbe } from '../transport/InstanceProbe';
import { Judging, withReadErrors } from '../assembling/environmentErrors';
import {
  AnnotationLocator,
  environmentOf,
  GitlabEnvLocator,
  instanceOf,
  LocateOptions,
  LocatedEntity,
} from '../locating/EnvironmentLocator';
import { OwningLocator } from '../locating/OwningLocator';
import { agentKey, AgentConnections } from '../locating/agentConnection';
import { PortalClaims } from '../locating/portalClaims';
import { NamespaceClaims, repositoryRefusal } from '../locating/ownership';
import { GitlabEnvClusterSource } from '../reading/clusterSources';
import { AgentAccess, EnvironmentContext } from '../planning/AgentAccess';
import { LivePlanner, ReadFreshness } from '../planning/LivePlanner';
import type { LiveTarget } from '../assembling/liveTarget';
import type { LiveEnvironment } from '../assembling/LiveEnvironment';
import type { ClusterAccess } from '../reading/clusterSources';
import type { ListableKind } from '../reading/discovery';
import {
  GitlabEnvTransport,
  SharedTransport,
} from '../transport/SharedTransport';
import { CoalescingCache } from '../caching/cache';
import { deadlineSignal, whenAborted } from '../transport/deadline';
import { namespacedKinds } from '../reading/discovery';
import { BUILT_IN_KINDS } from '../reading/builtInKinds';
import type { KasClient } from '../transport/kasClient';
import { SharedReadCache } from '../caching/sharedCache';
import { compareWithRepository } from '../assembling/desiredFromRepository';
import type { EnvironmentObserver } from '../assembling/environmentObserver';

/** Repository files are read at a commit: they do not change. */
const REPOSITORY_FILE_TTL_MS = 30 * 60_000;

/** Options of the GitlabEnvironmentsService constructor. @public */
export interface GitlabEnvironmentsServiceOptions {
  /** Adopters' health rules (extension point and app-config), tried before the built-in ones. */
  healthRules?: HealthRuleSet;
  /** The graph's relation sources, adopters' included (createRelationSet); the built-in ones by default. */
  relations?: RelationSet;
  /**
   * Backstage's CacheService on a store replicas share: values read here
   * are shared through it and survive a restart; without it the cache
   * lives in this process only.
   */
  sharedStore?: CacheService;
  /**
   * The plugin's transport, shared with its other services; one of its own by default.
   * @internal
   */
  transport?: GitlabEnvTransport;
  /**
   * Maps entities to projects and environments, given the default
   * (annotations) to wrap or replace; the default when left out.
   */
  locator?: (defaultLocator: GitlabEnvLocator) => GitlabEnvLocator;
  /** Backend modules' cluster sources, tried before KAS. */
  clusterSources?: GitlabEnvClusterSource[];
  /**
   * Told of every environment read assembled (the timeline).
   * @internal
   */
  observer?: EnvironmentObserver;
  /**
   * Every annotated entity of the catalog, page by page, read with the
   * plugin's own credentials: which other projects claim an environment's
   * namespace (see the README's "Ownership"). Without it, no namespace is
   * seen as contested.
   * @internal
   */
  portalEntities?: () => AsyncIterable<Entity[]>;
}

/** What every service call may carry: the caller's signal (its deadline, its client leaving). @public */
export interface CallOptions {
  signal?: AbortSignal;
  /**
   * The entity as the request pipeline located it (through `locate`), so a
   * call does not locate it again.
   * @internal
   */
  located?: LocatedEntity;
}

/**
 * Reads ahead in batches (GitlabEnvironmentsService.gatherReads): open
 * while more batches may come, `close` once the last one is registered.
 *
 * @public
 */
export interface ReadGathering {
  /** Every batch is registered: what no environment reads is dropped from the agents' lists. */
  close(): void;
}

/** A gathering: each agent's gather on the planner, opened with its first batch. */
class AgentGathering implements ReadGathering {
  private readonly open = new Map<string, { close(): void }>();
  private closed = false;
  private readonly leave: () => void;

  constructor(
    private readonly planner: LivePlanner,
    /** The caller's: a gathering whose caller left is closed, so no agent's lists keep every namespace for good. */
    signal?: AbortSignal,
  ) {
    if (signal?.aborted) this.closed = true;
    this.leave = signal ? whenAborted(signal, () => this.close()) : () => {};
  }

  add(agent: string) {
    if (!this.closed && !this.open.has(agent))
      this.open.set(agent, this.planner.gather(agent));
  }

  close() {
    this.closed = true;
    this.leave();
    this.open.forEach(agent => agent.close());
    this.open.clear();
  }
}

/** Options of GitlabEnvironmentsService.listEnvironments. @public */
export interface ListEnvironmentsOptions extends CallOptions {
  /** Also list stopped environments (default: available and stopping only). */
  includeStopped?: boolean;
  /**
   * Add each environment's rolled-up health (one resource read each,
   * cached): the answer then waits for the slowest agent. Without it (the
   * default) the list comes from GitLab alone, in its own round trips, and
   * each environment's cluster data is read on its own (`…/resources`,
   * the live stream).
   */
  withHealth?: boolean;
}

/** The locator, telling the observer what it found (every route locates through it). */
function observedLocator(
  locator: GitlabEnvLocator,
  observer: EnvironmentObserver | undefined,
  logger: LoggerService,
): GitlabEnvLocator {
  const located = observer?.located?.bind(observer);
  if (!located) return locator;
  return {
    async locate(entity, options) {
      const found = await locator.locate(entity, options);
      try {
        located(stringifyEntityRef(entity), found);
      } catch (error) {
        logger.warn(`Recording the environments of an entity failed: ${error}`);
      }
      return found;
    },
  };
}

/** Failures about the object an action names, not about the agent. */
const OBJECT_LEVEL_CODES = new Set<GitlabEnvError['code']>([
  'ACTION_FORBIDDEN',
  'OBJECT_NOT_FOUND',
  'OBJECT_CONFLICT',
  'ACTION_INVALID',
  'ACTION_NOT_APPLICABLE',
  'OUTSIDE_ENVIRONMENT',
  'LOGS_UNAVAILABLE',
  'INVALID_REQUEST',
  'INVALID_ENVIRONMENT_SETTING',
]);

/** What withEnvironmentAgent hands the actions (not exported from the package). */
export interface EnvironmentAgent {
  environment: GitlabEnvironment;
  /** The environment's objects, as its read or live state holds them. */
  resources: KubernetesObject[];
  /**
   * The environment's object a target names, from its state; one it lacks
   * costs at most one list of that kind in that namespace (see
   * LiveEnvironment.findObject), else undefined.
   */
  findObject: (target: ActionTarget) => Promise<KubernetesObject | undefined>;
  kas: KasClient;
  /** Identifies the agent (and the token's identity in its cluster), for caches. */
  agentKey: string;
  /** The GitLab instance's host (gitlabEnv.instances[].host). */
  instanceHost: string;
  /** The environment's kinds are out of date: a write changed them. */
  forgetRead: () => void;
  /** What the entity may act on, decided at the moment of the write (see OwningLocator.scopeForWrite). */
  scope: EnvironmentActionScope;
}

/**
 * From a catalog entity to its GitLab environments and what runs in them.
 * Independent of HTTP, so other routes can reuse it. It composes the
 * backend's concerns: the locator (entity → project, environments,
 * agent, namespace), the transport (GitLab and KAS clients, concurrency
 * budgets), the agent access (instance check, discovery, KAS refusals
 * explained) and the planner, whose shared store every read answers from
 * (a read is a one-shot of the live pipeline, LivePlanner.read). The
 * overview lists each entity's environments, calls `readAhead` for all of
 * them, then reads each one's health.
 *
 * @public
 */
export class GitlabEnvironmentsService {
  private readonly cache: SharedReadCache;
  private readonly transport: GitlabEnvTransport;
  private readonly locator: OwningLocator;
  private readonly access: AgentAccess;
  private readonly reads: LivePlanner;
  private readonly judging: Judging;
  private readonly freshness: ReadFreshness;
  /** Per discovered list of kinds, its namespaced ones (namespacedKindsOf). */
  private readonly namespacedKinds = new WeakMap<
    ListableKind[],
    ListableKind[]
  >();

  constructor(
    private readonly config: GitlabEnvConfig,
    private readonly logger: LoggerService,
    options: GitlabEnvironmentsServiceOptions = {},
  ) {
    const ttlMs = config.cacheTtlSeconds * 1000;
    const transientMs = config.transientCacheSeconds * 1000;
    this.freshness = { ttlMs, transientMs, definitiveMs: ttlMs };
    this.cache = new SharedReadCache(
      new CoalescingCache({
        ttlMs,
        failureTtlMs: error =>
          isDefinitiveFailure(error) ? ttlMs : transientMs,
        deadlineMs: config.requestDeadlineMs,
      }),
      options.sharedStore,
      { defaultTtlMs: ttlMs, logger },
    );
    this.transport = options.transport ?? new SharedTransport(config);
    this.transport.shareInstanceChecks?.(this.cache.sharedStore());
    const annotations = new AnnotationLocator(
      config,
      this.transport,
      this.cache,
    );
    // The timeline learns each entity's environments from what is located.
    const configured = observedLocator(
      options.locator?.(annotations) ?? annotations,
      options.observer,
      logger,
    );
    this.locator = new OwningLocator(
      configured,
      config,
      options.portalEntities &&
        new PortalClaims({
          entities: options.portalEntities,
          // Only namespaces GitLab gives count as claims: no cluster is
          // waited for, so no agent holds the index.
          locate: entity =>
            configured.locate(entity, { clusterLookups: 'known' }),
          refreshMs: config.ownership.claimsRefreshMs,
          logger,
        }),
    );
    this.judging = {
      healthRules: options.healthRules,
      relations: options.relations,
      expectedForbiddenKinds: config.expectedForbiddenKinds,
    };
    this.access = new AgentAccess(
      this.transport,
      this.cache,
      options.clusterSources ?? [],
      AgentConnections.of(this.transport, config, this.cache),
    );
    this.reads = new LivePlanner(
      config.live,
      {
        maxObjects: config.limits.maxObjectsPerEnvironment,
        maxPagesPerList: config.limits.maxPagesPerList,
      },
      {
        enabled: config.overview.clusterWideReads,
        minNamespaces: config.overview.clusterWideMinNamespaces,
      },
      logger,
      {
        shared: this.cache.sharedStore(),
        readTtlMs: ttlMs,
        partialTtlMs: transientMs,
        observer: options.observer,
      },
    );
  }

  /**
   * The planner every read and live stream of this service goes through:
   * the live router follows environments with it, writes refresh it.
   *
   * @internal
   */
  get planner(): LivePlanner {
    return this.reads;
  }

  /**
   * One request's signal: its caller's (a client that leaves) and its
   * deadline, so the request answers by then however many loads it waits
   * for in turn (environments, discovery, the read).
   */
  private requestSignal(signal?: AbortSignal): AbortSignal {
    return deadlineSignal(this.config.requestDeadlineMs, [signal]).signal;
  }

  private context(
    entity: Entity,
    located: LocatedEntity,
    environment: GitlabEnvironment,
  ): EnvironmentContext {
    return {
      entityRef: stringifyEntityRef(entity),
      instance: instanceOf(this.config, located.host),
      located,
      environment,
    };
  }

  /**
   * The entity through the one locator (the configured one, a module's or
   * the default), each environment with what the entity owns in it
   * (`actionScope`): the request pipeline's locate step.
   *
   * @internal
   */
  async locate(
    entity: Entity,
    options: CallOptions &
      Pick<LocateOptions, 'clusterLookups' | 'environment'> = {},
  ): Promise<LocatedEntity> {
    const { located, signal, ...lookups } = options;
    return (
      located ??
      this.locator.locate(entity, {
        ...lookups,
        signal: this.requestSignal(signal),
      })
    );
  }

  /**
   * The read cache (in the process, and in the replicas' shared store
   * when configured), for the plugin's other services to cache in.
   *
   * @internal
   */
  get readCache(): SharedReadCache {
    return this.cache;
  }

  /**
   * Which projects' environments claim which namespaces, portal-wide
   * (undefined without `portalEntities`).
   *
   * @internal
   */
  portalClaims(): Promise<NamespaceClaims | undefined> {
    return this.locator.portalClaims();
  }

  /** `GET /diagnostics`: every instance checked afresh, with what reads met. */
  async diagnose(): Promise<DiagnosticsResponse> {
    const instances = await Promise.all(
      this.config.instances.map(async instance => {
        const probe = this.transport.probe(instance);
        probe.invalidate();
        const facts = await probe.facts().catch(
          (error): InstanceFacts => ({
            kasEnabled: false,
            kasSource: 'none',
            token: { scopes: [], missingScopes: [] },
            checkedAt: new Date().toISOString(),
            checkError: asGitlabEnvError(error),
          }),
        );
        return {
          host: instance.host,
          baseUrl: instance.baseUrl,
          version: facts.version,
          versionUnsupported: !!InstanceProbe.unsupported(
            instance.host,
            facts.version,
          ),
          kas: {
            enabled: facts.kasEnabled,
            url: facts.kasUrl,
            source: facts.kasSource,
          },
          token: facts.token,
          checkedAt: facts.checkedAt,
          checkError: facts.checkError,
          agents: this.transport.diagnostics.agents(instance.host),
          recentFailures: this.transport.diagnostics.failures(instance.host),
        };
      }),
    );
    return { minimumGitlabVersion: MINIMUM_GITLAB_VERSION, instances };
  }

  async listEnvironments(
    entity: Entity,
    options: ListEnvironmentsOptions = {},
  ): Promise<EntityEnvironmentsResponse> {
    const signal = this.requestSignal(options.signal);
    // Without health the list is GitLab's alone: no agent holds it.
    const located =
      options.located ??
      (await this.locator.locate(entity, {
        signal,
        clusterLookups: options.withHealth ? 'wait' : 'known',
      }));
    const environments = located.environments.filter(
      e => options.includeStopped || e.state !== 'stopped',
    );
    const readable = options.withHealth
      ? environments.filter(e => e.agent && e.namespace)
      : [];
    // Listed without health (the overview), they are read soon: the agents'
    // instance check and discovery start now, off the reads' path.
    if (!options.withHealth)
      this.prepareAgents(
        environments.map(e => this.context(entity, located, e)),
      );
    const reads = this.readEnvironments(
      readable.map(environment => this.context(entity, located, environment)),
      signal,
    );
    const withHealth = await Promise.all(
      environments.map(async environment => {
        const at = readable.indexOf(environment);
        if (at === -1) return environment;
        try {
          const read = await reads[at];
          const drifted = read.environment.driftedCount;
          return withReadErrors(
            {
              ...environment,
              health: read.health,
              ...(drifted && { driftedCount: drifted }),
            },
            read.errors,
          );
        } catch (error) {
          // The card then shows no badge, and says why.
          this.logger.debug(
            `No health for environment ${environment.name}: ${error}`,
          );
          return withReadErrors(environment, [asGitlabEnvError(error)]);
        }
      }),
    );
    return {
      entityRef: stringifyEntityRef(entity),
      project: located.project,
      labelSelector: located.labelSelector,
      environments: withHealth,
      ...(located.warnings.length > 0 ? { errors: located.warnings } : {}),
    };
  }

  /**
   * An environment's objects, graph and health: from its live or read
   * state when there is one (no upstream request), else one list per kind
   * (see LivePlanner.read).
   */
  async getEnvironmentResources(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<EnvironmentResourcesResponse> {
    const { ctx, signal } = await this.findEnvironment(entity, slug, options);
    return this.readEnvironments([ctx], signal)[0];
  }

  /** The rolled-up health only; shares the environment's state with getEnvironmentResources. */
  async getEnvironmentHealth(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<HealthSummary> {
    return (await this.getEnvironmentResources(entity, slug, options)).health;
  }

  /**
   * Desired vs live from the repository, for Flux Kustomizations (see
   * compareWithRepository), against the objects the environment's state
   * holds (the live tab's when it is followed). Files are read at a
   * commit, so they are cached for long; a failed read is said, never
   * thrown. No comparison for an environment without a Flux object.
   */
  async getDesiredState(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<EnvironmentDesiredStateResponse> {
    const { ctx, signal } = await this.findEnvironment(entity, slug, options);
    if (!ctx.environment.fluxResourcePath) return {};
    const [read] = this.readEnvironments([ctx], signal);
    const { resources } = await read;
    const desired = await this.compareWithRepository(
      ctx.instance,
      ctx.environment,
      resources,
    );
    return desired ? { desired } : {};
  }

  /**
   * Desired vs live as the repository holds it at `ref` (a merge request's
   * head), or at the applied revision without it (see compareWithRepository).
   *
   * @internal
   */
  desiredStateAt(
    target: { host: string; environment: GitlabEnvironment },
    resources: readonly KubernetesObject[],
    ref?: string,
  ): Promise<DesiredStateComparison | undefined> {
    return this.compareWithRepository(
      instanceOf(this.config, target.host),
      target.environment,
      resources,
      ref,
    );
  }

  /**
   * Reads only the repositories the environment's scope allows: the
   * entity's own verified project and those its GitLabDeployment names,
   * never one named only by cluster data (the GitRepository's URL).
   */
  private async compareWithRepository(
    instance: EnvironmentContext['instance'],
    environment: GitlabEnvironment,
    resources: readonly KubernetesObject[],
    ref?: string,
  ): Promise<DesiredStateComparison | undefined> {
    const rest = this.transport.rest(instance);
    return compareWithRepository({
      objects: resources,
      fluxResourcePath: environment.fluxResourcePath,
      host: instance.host,
      ref,
      mayRead: project => repositoryRefusal(environment.actionScope, project),
      readFile: (project, path, at) =>
        this.cache.getOrLoad(
          `repofile|${instance.host}|${project}|${at}|${path}`,
          () => rest.file(project, path, at),
          { ttlMs: REPOSITORY_FILE_TTL_MS },
        ),
    }).catch(error => ({
      unavailable: `The repository could not be read: ${
        asGitlabEnvError(error).message
      }`,
      notRendered: [],
      objects: [],
    }));
  }

  /**
   * What following or reading an environment needs: where it is (agent,
   * namespace, selector), its agent's listable kinds and how its cluster is
   * reached. Fails as a read would (settings, token, version, KAS refusal).
   */
  private async target(
    ctx: EnvironmentContext,
    signal: AbortSignal,
    options: {
      /**
       * While the agent's discovery is under way, the built-in kinds are
       * listed beside it for the read that follows (LivePlanner.listEarly).
       */
      listEarly: boolean;
      /** The environment's read key, when the caller has it already. */
      readKey?: string;
    },
  ): Promise<LiveTarget> {
    this.access.refuseUnreadable(ctx);
    // Two targets are built of it (the early lists' and the read's): its
    // key, a walk of the environment's settings, is made once.
    const readKey = options.readKey ?? this.access.readKey(ctx);
    const { kinds, access } = await this.access.throughAgent(
      ctx,
      signal,
      async reached => {
        let early = !options.listEarly;
        const listEarly = () => {
          if (early) return;
          early = true;
          this.reads.listEarly(
            this.liveTarget(ctx, reached, [...BUILT_IN_KINDS], readKey),
            // Called back once it is assigned (below).
            // eslint-disable-next-line @typescript-eslint/no-use-before-define
            discovered,
          );
        };
        // When this call asks the cluster: after the replicas' store
        // missed, if there is one (it answers after any fixed wait). The
        // cache starts a load a microtask after it is asked at the soonest.
        const discovered = this.access.listableKinds(ctx, reached, signal, () =>
          queueMicrotask(listEarly),
        );
        // Or another call's discovery is under way.
        await Promise.resolve();
        if (this.access.isDiscovering(ctx)) listEarly();
        return { access: reached, kinds: await discovered };
      },
    );
    return this.liveTarget(ctx, access, kinds, readKey);
  }

  private liveTarget(
    ctx: EnvironmentContext,
    access: ClusterAccess,
    allKinds: ListableKind[],
    readKey: string,
  ): LiveTarget {
    return {
      entityRef: ctx.entityRef,
      environment: ctx.environment,
      labelSelector: ctx.located.labelSelector,
      readKey,
      agentKey: this.agentKeyOf(ctx),
      host: ctx.instance.host,
      kinds: this.namespacedKindsOf(allKinds),
      allKinds,
      access,
      judging: this.judging,
    };
  }

  /**
   * The namespaced kinds of an agent's discovered kinds, one list per
   * discovery: its environments then share it, and the planner what it
   * derives from it (the order kinds are read in).
   */
  private namespacedKindsOf(allKinds: ListableKind[]): ListableKind[] {
    let kinds = this.namespacedKinds.get(allKinds);
    if (!kinds) {
      kinds = namespacedKinds(allKinds);
      this.namespacedKinds.set(allKinds, kinds);
    }
    return kinds;
  }

  private agentKeyOf(ctx: EnvironmentContext): string {
    return agentKey(ctx.instance.host, ctx.environment.agent!.id);
  }

  /**
   * Opens a gathering of read-ahead batches (readAhead's `gathering`): the
   * overview reads each entity's environments as soon as they are listed,
   * and every batch of an agent shares the lists across its cluster the
   * first batch started (LivePlanner.gather), instead of waiting for the
   * last row before any list. `close` once every batch is registered.
   *
   * @internal
   */
  gatherReads(options: Pick<CallOptions, 'signal'> = {}): ReadGathering {
    return new AgentGathering(this.reads, options.signal);
  }

  /**
   * Starts each agent's instance check and discovery (cached), once per
   * agent, and tells the planner these environments will be read (each
   * card of a page on its own), so the first read lists each kind for all
   * of an agent's namespaces at once; never rejects.
   */
  private prepareAgents(contexts: EnvironmentContext[]) {
    const agents = new Map<string, EnvironmentContext>();
    const readable: EnvironmentContext[] = [];
    for (const ctx of contexts) {
      const { agent, namespace } = ctx.environment;
      if (!agent || !namespace) continue;
      agents.set(this.agentKeyOf(ctx), ctx);
      readable.push(ctx);
    }
    this.reads.announce(
      readable.map(ctx => ({
        agentKey: this.agentKeyOf(ctx),
        labelSelector: ctx.located.labelSelector,
        environment: ctx.environment,
      })),
      this.config.requestDeadlineMs,
    );
    // No lists: whether and how the environments are read is not known yet.
    for (const ctx of agents.values())
      this.target(
        ctx,
        deadlineSignal(this.config.requestDeadlineMs, []).signal,
        {
          listEarly: false,
        },
      ).catch(() => undefined);
  }

  /**
   * Reads environments together (see LivePlanner.readMany): each answer,
   * or the reason it has none, KAS refusals explained and recorded.
   */
  private readEnvironments(
    contexts: EnvironmentContext[],
    signal: AbortSignal,
  ): Array<Promise<EnvironmentResourcesResponse>> & {
    registered: Promise<unknown>;
  } {
    // Held and fresh (a page seen moments ago, one followed live): no
    // discovery, no instance check, no upstream request.
    const readKeys = contexts.map(ctx => this.access.readKey(ctx));
    const held = readKeys.map(key =>
      this.reads.heldAnswer(key, this.freshness),
    );
    const pending = contexts.filter((_, i) => !held[i]);
    const pendingKeys = readKeys.filter((_, i) => !held[i]);
    const targets = Promise.all(
      pending.map((ctx, i) =>
        this.target(ctx, signal, {
          listEarly: true,
          readKey: pendingKeys[i],
        }).then(
          target => ({ target }),
          (error: unknown) => ({ error }),
        ),
      ),
    );
    const reads = targets.then(found => {
      const ok = found.flatMap(f => ('target' in f ? [f.target] : []));
      const started = this.reads.readMany(ok, this.freshness, signal);
      return found.map(f =>
        'target' in f
          ? { read: started[ok.indexOf(f.target)], access: f.target.access }
          : f,
      );
    });
    const answers = contexts.map(async (ctx, i) => {
      const answer = held[i];
      if (answer) return this.asCaller(answer, ctx);
      const found = (await reads)[pending.indexOf(ctx)];
      // Could not be located or reached: already explained and recorded.
      if ('error' in found) throw found.error;
      return this.asCaller(
        await this.access.readOutcome(ctx, found.access, found.read),
        ctx,
      );
    });
    return Object.assign(answers, { registered: reads });
  }

  /** An answer shared by environments of one read key, as this entity's. */
  private asCaller(
    answer: EnvironmentResourcesResponse,
    ctx: EnvironmentContext,
  ): EnvironmentResourcesResponse {
    const { health, driftedCount } = answer.environment;
    return {
      ...answer,
      entityRef: ctx.entityRef,
      environment: {
        ...ctx.environment,
        health,
        ...(driftedCount && { driftedCount }),
      },
    };
  }

  /**
   * One environment of an entity, with the configured instance it is read
   * through, for the history routes.
   *
   * @internal
   */
  environmentContext(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<EnvironmentContext> {
    return this.findEnvironment(entity, slug, options).then(
      ({ ctx, signal }) => ({ ...ctx, signal }),
    );
  }

  /**
   * The signal a call's upstream requests carry: the caller's, and the
   * request deadline.
   *
   * @internal
   */
  callSignal(options: CallOptions = {}): AbortSignal {
    return this.requestSignal(options.signal);
  }

  /** One environment of an entity, with the call's signal (its deadline included). */
  private async findEnvironment(
    entity: Entity,
    slug: string,
    options: CallOptions,
  ): Promise<{ ctx: EnvironmentContext; signal: AbortSignal }> {
    const signal = this.requestSignal(options.signal);
    // Only this environment's agent is waited for.
    const located =
      options.located ??
      (await this.locator.locate(entity, { signal, environment: slug }));
    const environment = environmentOf(located, slug);
    return { ctx: this.context(entity, located, environment), signal };
  }

  /**
   * For the actions: the entity's environment, its objects (from its read
   * or live state; a target it lacks costs at most one list of that kind
   * in that namespace) and a KAS client for its agent, for `act` to write
   * or stream through. KAS refusals are explained as for reads.
   * `streaming`: the client lives as long as the caller's signal, without
   * the request deadline (a followed log).
   *
   * @internal
   */
  async withEnvironmentAgent<T>(
    entity: Entity,
    slug: string,
    act: (agent: EnvironmentAgent) => Promise<T>,
    options: CallOptions & { streaming?: boolean } = {},
  ): Promise<T> {
    const asked = Date.now();
    const { ctx, signal } = await this.findEnvironment(entity, slug, options);
    const target = await this.target(ctx, signal, { listEarly: true });
    const agent = ctx.environment.agent!;
    const kasSignal =
      options.streaming && options.signal ? options.signal : signal;
    // The agent's diagnostics record how the agent answered; a refusal of
    // the object (forbidden, gone, outside the environment) is not that.
    const result = await this.access.throughAgent(ctx, signal, async access => {
      try {
        if (access.via !== 'kas')
          throw failure(
            'ACTION_NOT_APPLICABLE',
            `The cluster of agent ${agent.name} is read through a backend module, which takes no actions.`,
          );
        const kas = access.kas(kasSignal);
        const scope = await this.locator.scopeForWrite(
          entity,
          ctx.located,
          ctx.environment,
          access.kas(signal),
        );
        return {
          value: await this.reads.withEnvironment(
            target,
            this.freshness,
            signal,
            (environment: LiveEnvironment) =>
              act({
                scope,
                environment: ctx.environment,
                resources: environment.objects(),
                findObject: wanted =>
                  environment.findObject(
                    {
                      group: groupOfApiVersion(wanted.apiVersion),
                      kind: wanted.kind,
                      namespace: wanted.namespace,
                      name: wanted.name,
                    },
                    asked,
                  ),
                kas,
                agentKey: this.agentKeyOf(ctx),
                instanceHost: ctx.instance.host,
                forgetRead: () =>
                  this.reads.refresh({
                    agent: { host: ctx.instance.host, id: agent.id },
                    namespace: ctx.environment.namespace!,
                  }),
              }),
          ),
        };
      } catch (error) {
        if (
          error instanceof GitlabEnvFailure &&
          OBJECT_LEVEL_CODES.has(error.detail.code)
        )
          return { refused: error };
        throw error;
      }
    });
    if ('refused' in result) throw result.refused;
    return result.value;
  }

  /**
   * What following an environment live needs: where it is (agent,
   * namespace, selector), its agent's listable kinds and how its cluster is
   * reached. Fails as a read would (settings, token, version, KAS refusal).
   *
   * @internal
   */
  async locateLive(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<LiveTarget> {
    const { ctx, signal } = await this.findEnvironment(entity, slug, options);
    return this.target(ctx, signal, { listEarly: true });
  }

  /**
   * Starts reading ahead, for the overview, the environments it will ask
   * the health of: registered together, so many of one agent are read with
   * one list per kind across the cluster (LivePlanner.readMany). Resolves
   * once the reads are registered, not when they finish, with each
   * target's answer as `getEnvironmentResources` would give it (so the
   * overview writes a row's health without locating and reading it a
   * second time), or undefined for a target that could not be located or
   * has no agent or namespace (its own read says why). The answers reject
   * as that call would; `signal` (with the request deadline) ends them.
   */
  async readAhead(
    targets: Array<{ entity: Entity; environment: GitlabEnvironment }>,
    options: Pick<CallOptions, 'signal'> & {
      /** One of several batches (gatherReads): they share each agent's lists. */
      gathering?: ReadGathering;
    } = {},
  ): Promise<Array<Promise<EnvironmentResourcesResponse> | undefined>> {
    const { gathering } = options;
    // Each batch its own deadline: a batch listed late in a long overview
    // gets the whole of it.
    const signal = this.requestSignal(options.signal);
    // Located side by side: each is a cache hit after the listing, and a
    // miss must not hold the others. Once per entity and agent: locating
    // again for each of its environments would only repeat the work (the
    // entity's ownership, what the timeline is told).
    const located = new Map<string, Promise<LocatedEntity>>();
    const locate = (entity: Entity, environment: GitlabEnvironment) => {
      const key = `${stringifyEntityRef(entity)}|${environment.agent!.id}`;
      let found = located.get(key);
      if (!found) {
        // Only this agent's cluster lookups are waited for.
        found = this.locator.locate(entity, {
          environment: environment.slug,
        });
        located.set(key, found);
      }
      return found;
    };
    const found = await Promise.all(
      targets.map(async ({ entity, environment }) => {
        if (!environment.agent || !environment.namespace) return undefined;
        try {
          return this.context(
            entity,
            await locate(entity, environment),
            environment,
          );
        } catch {
          return undefined;
        }
      }),
    );
    const contexts = found.flatMap(ctx => (ctx ? [ctx] : []));
    if (gathering instanceof AgentGathering)
      for (const ctx of contexts) gathering.add(this.agentKeyOf(ctx));
    const reads = this.readEnvironments(contexts, signal);
    reads.forEach((read, i) =>
      read.catch(error =>
        this.logger.debug(
          `Reading environment ${contexts[i].environment.name} ahead failed: ${error}`,
        ),
      ),
    );
    await reads.registered.catch(() => undefined);
    let next = 0;
    return found.map(ctx => (ctx ? reads[next++] : undefined));
  }
}
