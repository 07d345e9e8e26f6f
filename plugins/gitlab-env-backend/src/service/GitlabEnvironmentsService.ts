import { setMaxListeners } from 'events';
import { CacheService, LoggerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import {
  buildResourceGraph,
  DiagnosticsResponse,
  EntityEnvironmentsResponse,
  DesiredStateComparison,
  EnvironmentResourcesResponse,
  GitlabAgentRef,
  GitlabEnvError,
  GitlabEnvironment,
  HealthRuleSet,
  HealthSummary,
  KubernetesObject,
  parseFluxResourcePath,
  ResourceGraph,
  summarizeGraphHealth,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import pLimit from 'p-limit';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { DiagnosticsRecorder } from '../diagnostics/DiagnosticsRecorder';
import {
  asGitlabEnvError,
  failure,
  GitlabEnvFailure,
  isDefinitiveFailure,
} from '../errors';
import { checkFluxResourcePath, invalidSetting } from '../validation';
import { MINIMUM_GITLAB_VERSION } from '../instance/gitlabVersion';
import {
  InstanceFacts,
  InstanceProbe,
  tokenFailure,
} from '../instance/InstanceProbe';
import { markExpectedRefusals } from './expectedRefusals';
import { missingKubernetesSetting } from './kubernetesSettings';
import { CoalescingCache } from './cache';
import { SharedReadCache } from './sharedCache';
import { discoverListableKinds, ListableKind } from './discovery';
import { EntityScope, isInScope, readEntityScope } from './entityScope';
import { GitlabClient, ProjectEnvironments } from './gitlabClient';
import { KasClient } from './kasClient';
import { readAcrossCluster } from './clusterWideSource';
import {
  getObject,
  kasObjectSource,
  listKind,
  ObjectSource,
} from './objectSource';
import { ReadBounds } from './readBounds';
import { readEnvironmentObjects } from './resourceReader';
import { GitlabRestClient } from '../ciAccess/gitlabRest';
import { compareWithRepository } from '../gitops/desiredFromRepository';
import { driftedCount } from '../gitops/driftedCount';
import {
  GITLAB_DEPLOYMENT_KIND,
  mapNamespaces,
} from '../gitops/gitlabDeployments';

/** Options of the GitlabEnvironmentsService constructor. @public */
export interface GitlabEnvironmentsServiceOptions {
  /** Adopters' health rules (extension point and app-config), tried before the built-in ones. */
  healthRules?: HealthRuleSet;
  /**
   * Backstage's CacheService on a store replicas share: values read here
   * are shared through it and survive a restart; without it the cache
   * lives in this process only.
   */
  sharedStore?: CacheService;
}

/** What every service call may carry: the caller's signal (its deadline, its client leaving). @public */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of GitlabEnvironmentsService.listEnvironments. @public */
export interface ListEnvironmentsOptions extends CallOptions {
  /** Also list stopped environments (default: available and stopping only). */
  includeStopped?: boolean;
  /** Add each environment's rolled-up health (one resource read each, cached). */
  withHealth?: boolean;
}

type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

/** Discovery changes when CRDs are installed, which is rare: keep it longer. */
const DISCOVERY_TTL_MS = 5 * 60_000;
/** Repository files are read at a commit: they do not change. */
const REPOSITORY_FILE_TTL_MS = 30 * 60_000;
const ALL_STATES = ['available', 'stopping', 'stopped'] as const;

interface EnvironmentRead {
  resources: KubernetesObject[];
  graph: ResourceGraph;
  health: HealthSummary;
  errors: GitlabEnvError[];
  fetchedAt: string;
}

/**
 * From a catalog entity to its GitLab environments and what runs in them.
 * Independent of HTTP, so other routes can reuse it: the overview lists each
 * entity's environments, calls `readAhead` for all of them, then reads each
 * one's health. The cache and coalescing here make repeated and concurrent
 * calls for the same project or namespace cost one round of upstream reads
 * per TTL.
 *
 * @public
 */
export class GitlabEnvironmentsService {
  private readonly cache: SharedReadCache;
  private readonly instanceLimits = new Map<string, Limit>();
  private readonly agentLimits = new Map<string, Limit>();
  private readonly probes = new Map<string, InstanceProbe>();
  /** Agents KAS answered for lately: their requests need no tunnel-search allowance. */
  private readonly answeringAgents = new Set<string>();
  private readonly diagnostics = new DiagnosticsRecorder();

  constructor(
    private readonly config: GitlabEnvConfig,
    private readonly logger: LoggerService,
    private readonly options: GitlabEnvironmentsServiceOptions = {},
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
  }

  /**
   * One request's signal: its caller's (a client that leaves) and its
   * deadline, so the request answers by then however many loads it waits
   * for in turn (environments, discovery, the read).
   */
  private requestSignal(signal?: AbortSignal): AbortSignal {
    const deadline = AbortSignal.timeout(this.config.requestDeadlineMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    setMaxListeners(0, combined);
    return combined;
  }

  private upstreamOptions(signal: AbortSignal) {
    return { signal, maxBytes: this.config.limits.maxResponseBytes };
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

  private instanceLimit(host: string): Limit {
    let limit = this.instanceLimits.get(host);
    if (!limit) {
      limit = pLimit(this.config.concurrency.perInstance);
      this.instanceLimits.set(host, limit);
    }
    return limit;
  }

  private agentLimit(host: string, agentId: string): Limit {
    const key = `${host}|${agentId}`;
    let limit = this.agentLimits.get(key);
    if (!limit) {
      const instance = this.instanceLimit(host);
      const agent = pLimit(this.config.concurrency.perAgent);
      limit = fn => agent(() => instance(fn));
      this.agentLimits.set(key, limit);
    }
    return limit;
  }

  private probe(instance: GitlabInstanceConfig): InstanceProbe {
    let probe = this.probes.get(instance.host);
    if (!probe) {
      probe = new InstanceProbe(
        instance,
        this.config.requestTimeoutMs,
        this.instanceLimit(instance.host),
      );
      this.probes.set(instance.host, probe);
    }
    return probe;
  }

  /**
   * The instance's facts, failing with the token's or the version's problem
   * when there is one: every read needs a usable token and GitLab 16.4+.
   */
  private async usableInstance(
    instance: GitlabInstanceConfig,
  ): Promise<InstanceFacts> {
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
  private async explainGitlabFailure(
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

  private projectEnvironments(
    scope: EntityScope,
    signal?: AbortSignal,
  ): Promise<ProjectEnvironments> {
    const { instance, project } = scope;
    const key = `env|${instance.host}|${JSON.stringify(project)}`;
    return this.cache
      .getOrLoad(
        key,
        async loadSignal => {
          // The listing does not wait for the instance check: every field it
          // asks for exists from the 16.4 floor on, so before the first check
          // it asks for all of them; a failed check still decides the answer.
          const usable = this.usableInstance(instance);
          const listing = new GitlabClient(
            instance,
            this.config.requestTimeoutMs,
            this.instanceLimit(instance.host),
            this.probe(instance).knownVersion(),
            this.upstreamOptions(loadSignal),
          ).listEnvironments(project, [...ALL_STATES]);
          // Handled below, once the check is in; not an unhandled rejection meanwhile.
          listing.catch(() => undefined);
          await usable;
          const data = await listing.catch(error =>
            this.explainGitlabFailure(instance, error),
          );
          return this.withNamespaceSources(instance, data, loadSignal);
        },
        { signal },
      )
      .catch(error => {
        this.diagnostics.failure(
          instance.host,
          asGitlabEnvError(error),
          'fullPath' in project ? project.fullPath : `project ${project.id}`,
        );
        throw error;
      });
  }

  /**
   * Each environment's namespace source; an environment GitLab gives an
   * agent but no namespace gets one from the agent's GitLabDeployment
   * objects when they name it. A failed list leaves it without one.
   */
  private async withNamespaceSources(
    instance: GitlabInstanceConfig,
    data: ProjectEnvironments,
    signal: AbortSignal,
  ): Promise<ProjectEnvironments> {
    const environments = await mapNamespaces(
      data.environments,
      data.project.fullPath,
      async agentId => {
        const agent = data.environments.find(e => e.agent?.id === agentId)
          ?.agent!;
        try {
          const facts = await this.usableInstance(instance);
          const kas = this.kasClient(instance, facts, agent, signal);
          const { bounds } = this.readBounds(signal);
          return await listKind(kas, GITLAB_DEPLOYMENT_KIND, { bounds });
        } catch (error) {
          this.logger.debug(
            `No GitLabDeployment objects through agent ${agent.name}: ${error}`,
          );
          return undefined;
        }
      },
      async environment => {
        try {
          const path = checkFluxResourcePath(
            environment.fluxResourcePath!,
            'The environment',
          );
          const facts = await this.usableInstance(instance);
          const kas = this.kasClient(
            instance,
            facts,
            environment.agent!,
            signal,
          );
          const { bounds } = this.readBounds(signal);
          return await getObject(
            kas,
            { ...path, label: `${path.group}/${path.kind}` },
            bounds,
          );
        } catch (error) {
          this.logger.debug(
            `No Flux object for environment ${environment.name}: ${error}`,
          );
          return undefined;
        }
      },
    );
    return { ...data, environments };
  }

  /** `GET /diagnostics`: every instance checked afresh, with what reads met. */
  async diagnose(): Promise<DiagnosticsResponse> {
    const instances = await Promise.all(
      this.config.instances.map(async instance => {
        const probe = this.probe(instance);
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
          agents: this.diagnostics.agents(instance.host),
          recentFailures: this.diagnostics.failures(instance.host),
        };
      }),
    );
    return { minimumGitlabVersion: MINIMUM_GITLAB_VERSION, instances };
  }

  async listEnvironments(
    entity: Entity,
    options: ListEnvironmentsOptions = {},
  ): Promise<EntityEnvironmentsResponse> {
    const scope = readEntityScope(entity, this.config.instances);
    const signal = this.requestSignal(options.signal);
    const data = await this.projectEnvironments(scope, signal);
    const environments = data.environments.filter(
      e =>
        isInScope(scope, e) &&
        (options.includeStopped || e.state !== 'stopped'),
    );
    const withHealth = options.withHealth
      ? await Promise.all(
          environments.map(async environment => {
            if (!environment.agent || !environment.namespace)
              return environment;
            try {
              const read = await this.readEnvironment(
                scope,
                data,
                environment,
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
      project: data.project,
      labelSelector: scope.labelSelector,
      environments: withHealth,
      ...(data.warnings.length > 0 ? { errors: data.warnings } : {}),
    };
  }

  async getEnvironmentResources(
    entity: Entity,
    slug: string,
    options: CallOptions = {},
  ): Promise<EnvironmentResourcesResponse> {
    const signal = this.requestSignal(options.signal);
    const { scope, data, environment } = await this.findEnvironment(
      entity,
      slug,
      signal,
    );
    const read = await this.readEnvironment(scope, data, environment, signal);
    const desired = await this.desiredState(scope, environment, read);
    return {
      entityRef: stringifyEntityRef(entity),
      environment: { ...environment, health: read.health },
      scope: {
        namespace: environment.namespace,
        labelSelector: scope.labelSelector,
      },
      ...read,
      ...(desired && { desired }),
    };
  }

  /**
   * Desired vs live from the repository, for Flux Kustomizations (see
   * compareWithRepository). Files are read at a commit, so they are cached
   * for long; a failed read is said, never thrown.
   */
  private async desiredState(
    scope: EntityScope,
    environment: GitlabEnvironment,
    read: EnvironmentRead,
  ): Promise<DesiredStateComparison | undefined> {
    const { instance } = scope;
    const rest = new GitlabRestClient(
      instance,
      this.config.requestTimeoutMs,
      this.instanceLimit(instance.host),
    );
    return compareWithRepository({
      objects: read.resources,
      fluxResourcePath: environment.fluxResourcePath,
      host: instance.host,
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
    const { scope, data, environment } = await this.findEnvironment(
      entity,
      slug,
      signal,
    );
    return (await this.readEnvironment(scope, data, environment, signal))
      .health;
  }

  private async findEnvironment(
    entity: Entity,
    slug: string,
    signal?: AbortSignal,
  ) {
    const scope = readEntityScope(entity, this.config.instances);
    const data = await this.projectEnvironments(scope, signal);
    const environment = data.environments.find(
      e => e.slug === slug && isInScope(scope, e),
    );
    if (!environment) {
      throw failure(
        'ENVIRONMENT_NOT_FOUND',
        `The project ${data.project.fullPath} has no environment '${slug}' shown for this entity.`,
        {
          hint: "The environment may have been deleted, or the entity's gitlab-env annotations filter it out.",
        },
      );
    }
    return { scope, data, environment };
  }

  private kasProxyUrl(
    instance: GitlabInstanceConfig,
    facts: InstanceFacts,
  ): string {
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

  /** The cache key of an environment's read: what the upstream answer depends on. */
  private readKey(scope: EntityScope, environment: GitlabEnvironment): string {
    return `read|${scope.instance.host}|${environment.agent?.id}|${
      environment.namespace
    }|${scope.labelSelector ?? ''}|${environment.fluxResourcePath ?? ''}`;
  }

  private kasClient(
    instance: GitlabInstanceConfig,
    facts: InstanceFacts,
    agent: GitlabAgentRef,
    signal: AbortSignal,
  ): KasClient {
    // KAS alone decides whether the token's user may use the agent:
    // user_access authorizes users, not the project whose environment this
    // is, so Project.userAccessAuthorizedAgents cannot tell in advance.
    const key = `${instance.host}|${agent.id}`;
    const answered = this.answeringAgents.has(key);
    return new KasClient(
      {
        kasProxyUrl: this.kasProxyUrl(instance, facts),
        token: instance.token!,
        agent,
      },
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

  /**
   * KAS answers one 401 for many causes. Before calling it "not shared", rule
   * out what the instance check and GitLab's view of the agent can tell:
   * the token (expired, revoked, no k8s_proxy: agent_helpers.rb
   * validate_and_save_access_token!) and an agent that never connected, for
   * which GitLab holds no authorization yet (refresh_service.rb).
   */
  private async explainKasRefusal(
    scope: EntityScope,
    data: ProjectEnvironments,
    environment: GitlabEnvironment,
    error: unknown,
  ): Promise<never> {
    if (
      !(error instanceof GitlabEnvFailure) ||
      error.detail.code !== 'AGENT_NOT_SHARED'
    ) {
      throw error;
    }
    const { instance } = scope;
    const probe = this.probe(instance);
    probe.invalidate();
    const facts = await probe.facts().catch(() => undefined);
    const tokenProblem = facts && tokenFailure(instance.host, facts);
    if (tokenProblem) throw tokenProblem;
    const activity = await new GitlabClient(
      instance,
      this.config.requestTimeoutMs,
      this.instanceLimit(instance.host),
      facts?.version,
    )
      .agentActivity(data.project.fullPath, environment.name)
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

  /** Runs an agent's read, names the cause of a KAS refusal and records the outcome. */
  private async throughAgent<T>(
    scope: EntityScope,
    data: ProjectEnvironments,
    environment: GitlabEnvironment,
    read: (facts: InstanceFacts) => Promise<T>,
  ): Promise<T> {
    const agent = environment.agent!;
    const { host } = scope.instance;
    try {
      const facts = await this.usableInstance(scope.instance);
      const kasScope = tokenFailure(host, facts, 'k8s_proxy');
      if (kasScope) throw kasScope;
      const result = await read(facts).catch(error =>
        this.explainKasRefusal(scope, data, environment, error),
      );
      this.diagnostics.agentResult(host, agent, 'ok');
      return result;
    } catch (error) {
      const detail = asGitlabEnvError(error);
      this.diagnostics.agentResult(host, agent, detail.code);
      this.diagnostics.failure(
        host,
        detail,
        `${data.project.fullPath}: ${environment.name} (agent ${agent.name})`,
      );
      throw error;
    }
  }

  /** Discovery is shared by every read of an agent, so it runs on its own cache entry's signal. */
  private listableKinds(
    instance: GitlabInstanceConfig,
    facts: InstanceFacts,
    agent: GitlabAgentRef,
    signal: AbortSignal,
  ): Promise<ListableKind[]> {
    return this.cache.getOrLoad<ListableKind[]>(
      `discovery|${instance.host}|${agent.id}`,
      loadSignal =>
        discoverListableKinds(
          this.kasClient(instance, facts, agent, loadSignal),
        ),
      { ttlMs: DISCOVERY_TTL_MS, signal },
    );
  }

  private readEnvironment(
    scope: EntityScope,
    data: ProjectEnvironments,
    environment: GitlabEnvironment,
    signal?: AbortSignal,
  ): Promise<EnvironmentRead> {
    const missing = missingKubernetesSetting(environment);
    if (missing) {
      // A value GitLab gave that failed validation was dropped: name it, not
      // the gap it left.
      const refused = invalidSetting(environment);
      const reason = refused ? new GitlabEnvFailure(refused) : missing;
      this.diagnostics.failure(
        scope.instance.host,
        reason.detail,
        `${data.project.fullPath}: ${environment.name}`,
      );
      return Promise.reject(reason);
    }
    const agent = environment.agent!;
    return this.cache.getOrLoad(
      this.readKey(scope, environment),
      loadSignal =>
        this.throughAgent(scope, data, environment, async facts => {
          const kas = this.kasClient(scope.instance, facts, agent, loadSignal);
          const { bounds, warnings } = this.readBounds(loadSignal);
          const kinds = await this.listableKinds(
            scope.instance,
            facts,
            agent,
            loadSignal,
          );
          return this.assembleRead(
            kasObjectSource(kas, bounds, scope.labelSelector),
            kinds,
            environment,
            scope.labelSelector,
            {
              bounds,
              warnings: () => warnings.map(w => w.warning),
            },
          );
        }),
      { signal },
    );
  }

  private assembleRead(
    source: ObjectSource,
    kinds: ListableKind[],
    environment: GitlabEnvironment,
    labelSelector: string | undefined,
    read: { bounds: ReadBounds; warnings: () => GitlabEnvError[] },
  ): Promise<EnvironmentRead> {
    return assembleRead(source, kinds, environment, labelSelector, read, {
      healthRules: this.options.healthRules,
      expectedForbiddenKinds: this.config.expectedForbiddenKinds,
    });
  }

  /**
   * Starts reading ahead, for the overview, the environments not cached yet:
   * those of one agent (and label selector) spread over several namespaces
   * are read with one cluster-wide list per kind (see readAcrossCluster);
   * the rest are left to their own reads. Each read is registered in the
   * cache under the key the entity tab reads, so a later or concurrent
   * getEnvironmentResources joins it and both show the same data. Resolves
   * once the reads are registered, not when they finish; never rejects.
   */
  async readAhead(
    targets: Array<{ entity: Entity; environment: GitlabEnvironment }>,
  ): Promise<void> {
    const groups = new Map<
      string,
      Array<{
        scope: EntityScope;
        data: ProjectEnvironments;
        environment: GitlabEnvironment;
      }>
    >();
    for (const { entity, environment } of targets) {
      if (!environment.agent || !environment.namespace) continue;
      let scope: EntityScope;
      let data: ProjectEnvironments;
      try {
        scope = readEntityScope(entity, this.config.instances);
        data = await this.projectEnvironments(scope);
      } catch {
        continue;
      }
      if (this.cache.has(this.readKey(scope, environment))) continue;
      const key = `${scope.instance.host}|${environment.agent.id}|${
        scope.labelSelector ?? ''
      }`;
      const group = groups.get(key) ?? [];
      group.push({ scope, data, environment });
      groups.set(key, group);
    }
    for (const group of groups.values()) this.readAheadAcrossCluster(group);
  }

  private readAheadAcrossCluster(
    group: Array<{
      scope: EntityScope;
      data: ProjectEnvironments;
      environment: GitlabEnvironment;
    }>,
  ): void {
    const namespaces = new Set(group.map(g => g.environment.namespace!));
    const { clusterWideReads, clusterWideMinNamespaces } = this.config.overview;
    // Fewer namespaces cost fewer bytes read one by one than the whole
    // cluster's objects of each kind.
    if (!clusterWideReads || namespaces.size < clusterWideMinNamespaces) return;
    const { scope, data, environment } = group[0];
    const agent = environment.agent!;
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
    const readOnce = async (facts: InstanceFacts) => {
      const signal = AbortSignal.timeout(this.config.requestDeadlineMs);
      setMaxListeners(0, signal);
      const kas = this.kasClient(scope.instance, facts, agent, signal);
      const kinds = await this.listableKinds(
        scope.instance,
        facts,
        agent,
        signal,
      );
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
          labelSelector: scope.labelSelector,
          extraObjects,
          bounds,
        }),
      };
    };
    const readShared = () =>
      (started ??= this.throughAgent(scope, data, environment, readOnce));
    for (const { scope: s, environment: e } of group) {
      this.cache
        .getOrLoad(this.readKey(s, e), async () => {
          const read = await readShared();
          return this.assembleRead(
            read.source,
            read.kinds,
            e,
            s.labelSelector,
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

/**
 * An environment's objects from a source, with the engine's graph and
 * health, and NO_RESOURCES when nothing was found and nothing failed.
 * Whatever made the data incomplete (a kind that failed, objects left out,
 * a limit) is an entry of `errors`, and marks the health as partial.
 */
async function assembleRead(
  source: ObjectSource,
  kinds: ListableKind[],
  environment: GitlabEnvironment,
  labelSelector: string | undefined,
  read: { bounds: ReadBounds; warnings: () => GitlabEnvError[] },
  judging: {
    healthRules: HealthRuleSet | undefined;
    expectedForbiddenKinds: string[];
  },
): Promise<EnvironmentRead> {
  const namespace = environment.namespace!;
  const listed = await readEnvironmentObjects(source, kinds, {
    namespace,
    fluxResourcePath: environment.fluxResourcePath,
  });
  const { objects } = listed;
  // Refusals the agents make on purpose are information, not gaps.
  const errors = markExpectedRefusals(
    [...listed.errors, ...(environment.errors ?? []), ...read.warnings()],
    judging.expectedForbiddenKinds,
    environment.fluxResourcePath,
  );
  const kept = objects.slice(0, read.bounds.maxObjects);
  if (read.bounds.exceeded || kept.length < objects.length) {
    errors.push({
      code: 'LIMIT_REACHED',
      message: `This environment has more than ${read.bounds.maxObjects} objects; showing the first ${kept.length}. Narrow it with the gitlab-env/label-selector annotation.`,
      hint: 'Set gitlab-env/label-selector on the entity so it reads only its own objects, or raise gitlabEnv.limits.maxObjectsPerEnvironment.',
    });
  }
  if (kept.length === 0 && errors.length === 0) {
    errors.push({
      code: 'NO_RESOURCES',
      message: `Nothing was found in the namespace ${namespace}${
        labelSelector ? ` with the label selector ${labelSelector}` : ''
      }.`,
      hint: labelSelector
        ? 'The deployed objects may lack the labels the gitlab-env/label-selector annotation asks for.'
        : 'Nothing may have been deployed yet, or it went to another namespace.',
    });
  }
  const graph = buildResourceGraph(kept, {
    health: { rules: judging.healthRules },
  });
  return {
    resources: kept,
    graph,
    health: markPartial(summarizeGraphHealth(graph), errors),
    errors,
    fetchedAt: new Date().toISOString(),
  };
}

/** Errors that leave the data complete: the read found all there is. */
const COMPLETE_READ_CODES = new Set(['NO_RESOURCES']);

function incompleteness(errors: GitlabEnvError[]): GitlabEnvError[] {
  return errors.filter(e => !e.expected && !COMPLETE_READ_CODES.has(e.code));
}

/** A summary from incomplete data says so: never a plain Healthy. */
function markPartial(
  health: HealthSummary,
  errors: GitlabEnvError[],
): HealthSummary {
  const gaps = incompleteness(errors);
  if (gaps.length === 0) return health;
  const reasons = [...new Set(gaps.map(e => e.message))];
  return {
    ...health,
    partial: {
      reasons: reasons
        .slice(0, 5)
        .concat(reasons.length > 5 ? [`and ${reasons.length - 5} more`] : []),
    },
  };
}

function isPartialRead(value: unknown): boolean {
  const errors = (value as Partial<EnvironmentRead> | undefined)?.errors;
  return Array.isArray(errors) && incompleteness(errors).length > 0;
}

/** An environment with what its read could not get, next to its own settings' errors. */
function withReadErrors(
  environment: GitlabEnvironment,
  errors: GitlabEnvError[],
): GitlabEnvironment {
  const own = environment.errors ?? [];
  const added = errors.filter(e => !own.includes(e));
  const all = [...own, ...added];
  return all.length > 0 ? { ...environment, errors: all } : environment;
}
