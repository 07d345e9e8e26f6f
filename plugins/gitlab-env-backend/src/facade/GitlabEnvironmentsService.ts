import { CacheService, LoggerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import {
  DesiredStateComparison,
  DiagnosticsResponse,
  EntityEnvironmentsResponse,
  EnvironmentActionScope,
  EnvironmentResourcesResponse,
  GitlabEnvironment,
  GitlabEnvError,
  HealthRuleSet,
  RelationSet,
  HealthSummary,
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
import {
  isPartialRead,
  Judging,
  withReadErrors,
} from '../assembling/assembleRead';
import {
  AnnotationLocator,
  environmentOf,
  GitlabEnvLocator,
  instanceOf,
  LocateOptions,
  LocatedEntity,
} from '../locating/EnvironmentLocator';
import { OwningLocator } from '../locating/OwningLocator';
import { PortalClaims } from '../locating/portalClaims';
import { NamespaceClaims, repositoryRefusal } from '../locating/ownership';
import { GitlabEnvClusterSource } from '../reading/clusterSources';
import { EnvironmentContext, ReadPlanner } from '../planning/ReadPlanner';
import type { LiveTarget } from '../assembling/liveTarget';
import {
  GitlabEnvTransport,
  SharedTransport,
} from '../transport/SharedTransport';
import { CoalescingCache } from '../caching/cache';
import { deadlineSignal } from '../transport/deadline';
import { namespacedKinds } from '../reading/discovery';
import type { KasClient } from '../transport/kasClient';
import { SharedReadCache } from '../caching/sharedCache';
import { compareWithRepository } from '../assembling/desiredFromRepository';
import { driftedCount } from '../assembling/driftedCount';

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
  /** The environment's objects as last read (possibly from cache). */
  resources: KubernetesObject[];
  /** The environment's objects read again now, past the cache (for one newer than the cached read). */
  freshResources: () => Promise<KubernetesObject[]>;
  kas: KasClient;
  /** Identifies the agent (and the token's identity in its cluster), for caches. */
  agentKey: string;
  /** The GitLab instance's host (gitlabEnv.instances[].host). */
  instanceHost: string;
  /** Drops the environment's cached read (here and in a shared store): a write changed it. */
  forgetRead: () => void;
  /** What the entity may act on, decided at the moment of the write (see OwningLocator.scopeForWrite). */
  scope: EnvironmentActionScope;
}

/**
 * From a catalog entity to its GitLab environments and what runs in them.
 * Independent of HTTP, so other routes can reuse it. It composes the
 * backend's four concerns: the locator (entity → project, environments,
 * agent, namespace), the transport (GitLab and KAS clients, concurrency
 * budgets), the read planner (shared, cached reads and read-ahead across
 * a cluster) and the assembler (graph and health, in the planner's reads).
 * The overview lists each entity's environments, calls `readAhead` for all
 * of them, then reads each one's health.
 *
 * @public
 */
export class GitlabEnvironmentsService {
  private readonly cache: SharedReadCache;
  private readonly transport: GitlabEnvTransport;
  private readonly locator: OwningLocator;
  private readonly reads: ReadPlanner;
  private readonly judging: Judging;

  constructor(
    private readonly config: GitlabEnvConfig,
    private readonly logger: LoggerService,
    options: GitlabEnvironmentsServiceOptions = {},
  ) {
    const ttlMs = config.cacheTtlSeconds * 1000;
    const transientMs = config.transientCacheSeconds * 1000;
    // A partial answer may be complete again in seconds: keep it briefly.
    const valueTtlMs = (value: unknown) =>
      isPartialRead(value) ? transientMs : ttlMs;
    this.cache = new SharedReadCache(
      new CoalescingCache({
        ttlMs,
        failureTtlMs: error =>
          isDefinitiveFailure(error) ? ttlMs : transientMs,
        valueTtlMs,
        deadlineMs: config.requestDeadlineMs,
      }),
      options.sharedStore,
      { defaultTtlMs: ttlMs, valueTtlMs, logger },
    );
    this.transport = options.transport ?? new SharedTransport(config);
    const annotations = new AnnotationLocator(
      config,
      this.transport,
      this.cache,
    );
    const configured = options.locator?.(annotations) ?? annotations;
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
    this.reads = new ReadPlanner(
      config,
      this.transport,
      this.cache,
      options.clusterSources ?? [],
      this.judging,
      logger,
    );
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
    located: LocatedEntity,
    environment: GitlabEnvironment,
  ): EnvironmentContext {
    return {
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
    const withHealth = options.withHealth
      ? await Promise.all(
          environments.map(async environment => {
            if (!environment.agent || !environment.namespace)
              return environment;
            try {
              const read = await this.reads.readEnvironment(
                this.context(located, environment),
                signal,
              );
              const drifted = driftedCount(read.resources, read.graph);
              return withReadErrors(
                {
                  ...environment,
                  health: read.health,
                  ...(drifted > 0 && { driftedCount: drifted }),
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
        )
      : environments;
    return {
      entityRef: stringifyEntityRef(entity),
      project: located.project,
      labelSelector: located.labelSelector,
      environments: withHealth,
      ...(located.warnings.length > 0 ? { errors: located.warnings } : {}),
    };
  }

  async getEnvironmentResources(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<EnvironmentResourcesResponse> {
    const signal = this.requestSignal(options.signal);
    const ctx = await this.findEnvironment(
      entity,
      slug,
      signal,
      options.located,
    );
    const read = await this.reads.readEnvironment(ctx, signal);
    const desired = await this.desiredState(ctx, read.resources);
    const { narrowed, ...rest } = read;
    return {
      entityRef: stringifyEntityRef(entity),
      environment: { ...ctx.environment, health: read.health },
      scope: {
        namespace: ctx.environment.namespace,
        labelSelector: ctx.located.labelSelector,
        ...(narrowed && { narrowed }),
      },
      ...rest,
      ...(desired && { desired }),
    };
  }

  /**
   * Desired vs live from the repository, for Flux Kustomizations (see
   * compareWithRepository). Files are read at a commit, so they are cached
   * for long; a failed read is said, never thrown.
   */
  private desiredState(
    ctx: EnvironmentContext,
    resources: readonly KubernetesObject[],
  ): Promise<DesiredStateComparison | undefined> {
    return this.compareWithRepository(ctx.instance, ctx.environment, resources);
  }

  /**
   * Desired vs live for an environment followed live, against the objects
   * its live state holds (see compareWithRepository).
   *
   * @internal
   */
  desiredStateOfLive(
    target: LiveTarget,
    resources: readonly KubernetesObject[],
  ): Promise<DesiredStateComparison | undefined> {
    return this.compareWithRepository(
      instanceOf(this.config, target.host),
      target.environment,
      resources,
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
  ): Promise<DesiredStateComparison | undefined> {
    const rest = this.transport.rest(instance);
    return compareWithRepository({
      objects: resources,
      fluxResourcePath: environment.fluxResourcePath,
      host: instance.host,
      mayRead: project => repositoryRefusal(environment.actionScope, project),
      readFile: (project, path, ref) =>
        this.cache.getOrLoad(
          `repofile|${instance.host}|${project}|${ref}|${path}`,
          () => rest.file(project, path, ref),
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

  /** The rolled-up health only; shares the cached read with getEnvironmentResources. */
  async getEnvironmentHealth(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<HealthSummary> {
    const signal = this.requestSignal(options.signal);
    const ctx = await this.findEnvironment(
      entity,
      slug,
      signal,
      options.located,
    );
    return (await this.reads.readEnvironment(ctx, signal)).health;
  }

  private async findEnvironment(
    entity: Entity,
    slug: string,
    signal?: AbortSignal,
    given?: LocatedEntity,
  ): Promise<EnvironmentContext> {
    // Only this environment's agent is waited for.
    const located =
      given ??
      (await this.locator.locate(entity, { signal, environment: slug }));
    const environment = environmentOf(located, slug);
    return this.context(located, environment);
  }

  /**
   * For the actions: the entity's environment, the objects its read holds
   * (what an action may name) and a KAS client for its agent, for `act` to
   * write or stream through. KAS refusals are explained as for reads.
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
    const signal = this.requestSignal(options.signal);
    const ctx = await this.findEnvironment(
      entity,
      slug,
      signal,
      options.located,
    );
    const read = await this.reads.readEnvironment(ctx, signal);
    const agent = ctx.environment.agent!;
    const kasSignal =
      options.streaming && options.signal ? options.signal : signal;
    // The agent's diagnostics record how the agent answered; a refusal of
    // the object (forbidden, gone, outside the environment) is not that.
    const outcome = await this.reads.throughAgent(ctx, async access => {
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
          value: await act({
            scope,
            environment: ctx.environment,
            resources: read.resources,
            freshResources: async () =>
              (
                await this.reads.loadEnvironment(ctx, signal)
              ).resources,
            kas,
            agentKey: `${ctx.instance.host}|${agent.id}`,
            instanceHost: ctx.instance.host,
            forgetRead: () => this.reads.forget(ctx),
          }),
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
    if ('refused' in outcome) throw outcome.refused;
    return outcome.value;
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
    const signal = this.requestSignal(options.signal);
    const ctx = await this.findEnvironment(
      entity,
      slug,
      signal,
      options.located,
    );
    this.reads.refuseUnreadable(ctx);
    const { kinds: allKinds, access } = await this.reads.throughAgent(
      ctx,
      async reached => ({
        access: reached,
        kinds: await this.reads.listableKinds(ctx, reached, signal),
      }),
    );
    return {
      entityRef: stringifyEntityRef(entity),
      environment: ctx.environment,
      labelSelector: ctx.located.labelSelector,
      readKey: this.reads.readKey(ctx),
      agentKey: `${ctx.instance.host}|${ctx.environment.agent!.id}`,
      host: ctx.instance.host,
      kinds: namespacedKinds(allKinds),
      allKinds,
      access,
      judging: this.judging,
    };
  }

  /**
   * Starts reading ahead, for the overview, the environments not cached
   * yet (see ReadPlanner.readAhead). Resolves once the reads are
   * registered, not when they finish; never rejects.
   */
  async readAhead(
    targets: Array<{ entity: Entity; environment: GitlabEnvironment }>,
  ): Promise<void> {
    const contexts: EnvironmentContext[] = [];
    for (const { entity, environment } of targets) {
      if (!environment.agent || !environment.namespace) continue;
      try {
        const located = await this.locator.locate(entity, {
          environment: environment.slug,
        });
        contexts.push(this.context(located, environment));
      } catch {
        continue;
      }
    }
    this.reads.readAhead(contexts);
  }
}
