import { Entity } from '@backstage/catalog-model';
import {
  GitlabEnvError,
  GitlabEnvironment,
  GitlabProjectRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { createHash } from 'crypto';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, failure } from '../errors';
import { isInScope, readEntityScope } from './entityScope';
import { SharedReadCache } from '../caching/sharedCache';
import { GitlabEnvTransport } from '../transport/SharedTransport';
import {
  mapNamespaces,
  namespaceSourcesThroughAgents,
} from './gitlabDeployments';
import { ReadBounds } from '../reading/readBounds';
import { ProjectEnvironments, ProjectLocator } from '../transport/gitlabClient';
import { AgentConnections } from './agentConnection';

/**
 * Where a catalog entity deploys: its GitLab project and the environments
 * it shows, each with its agent and namespace when GitLab knows them.
 *
 * @public
 */
export interface LocatedEntity {
  /** The GitLab instance, as `gitlabEnv.instances[].host` names it: reads use its token. */
  host: string;
  project: GitlabProjectRef;
  /** The entity's environments in every state (callers filter stopped ones). */
  environments: GitlabEnvironment[];
  /**
   * Every environment of the project, before the entity's filters
   * (gitlab-env/environments, gitlab-env/tiers): what still uses a
   * namespace although this entity does not show it. Default `environments`.
   */
  allEnvironments?: GitlabEnvironment[];
  /** Reads keep only objects with these labels. */
  labelSelector?: string;
  /** Why the list may be incomplete. */
  warnings: GitlabEnvError[];
}

/**
 * Maps a catalog entity to its GitLab project and environments. The
 * default reads the entity's annotations (`gitlab.com/project-slug` or
 * `-id`, `gitlab.com/instance`, `gitlab-env/*`) and asks GitLab; a backend
 * module can replace it (gitlabEnvLocatorExtensionPoint), for instance to
 * map entities by another convention. Failures are GitlabEnvFailure.
 *
 * @public
 */
export interface GitlabEnvLocator {
  locate(entity: Entity, options?: LocateOptions): Promise<LocatedEntity>;
}

/**
 * Options of GitlabEnvLocator.locate.
 *
 * @public
 */
export interface LocateOptions {
  /** The caller leaving, or its deadline. */
  signal?: AbortSignal;
  /**
   * `wait` (default): environments GitLab gives no namespace take one from
   * their agent's cluster (a GitLabDeployment, workloads carrying their
   * GitLab markers, a Flux inventory), looked up through KAS. `known`: the
   * answer comes from GitLab alone, with the namespaces the clusters gave
   * only when they are known already; the lookup starts meanwhile, for the
   * reads that follow. A list answers with `known`, so no agent holds it.
   */
  clusterLookups?: 'wait' | 'known';
  /**
   * The slug of the one environment the caller reads: with `wait`, only
   * its agent's cluster is waited for (namespaces are shared only through
   * one agent, so the others' lookups cannot change its answer).
   */
  environment?: string;
}

/** A promise's value if it has settled, undefined if it is still pending or failed. */
async function valueIfSettled<T>(promise: Promise<T>): Promise<T | undefined> {
  const pending = Symbol('pending');
  const first = await Promise.race([
    promise.catch(() => pending),
    new Promise<typeof pending>(resolve =>
      setImmediate(() => resolve(pending)),
    ),
  ]);
  return first === pending ? undefined : (first as T);
}

const ALL_STATES = ['available', 'stopping', 'stopped'] as const;

/** The default locator: annotations, then one cached GitLab listing per project. */
export class AnnotationLocator implements GitlabEnvLocator {
  private readonly connections: AgentConnections;

  private readonly digests = new WeakMap<
    ProjectEnvironments,
    Map<string, string>
  >();

  constructor(
    private readonly config: GitlabEnvConfig,
    private readonly transport: GitlabEnvTransport,
    private readonly cache: SharedReadCache,
  ) {
    this.connections = AgentConnections.of(transport, config, cache);
  }

  /** The project's environments as GitLab lists them (cached). */
  private listing(
    instance: GitlabInstanceConfig,
    project: ProjectLocator,
    signal?: AbortSignal,
  ): Promise<ProjectEnvironments> {
    return this.cache
      .getOrLoad(
        `env|${instance.host}|${JSON.stringify(project)}`,
        async loadSignal => {
          // The listing does not wait for the instance check: every field it
          // asks for exists from the 16.4 floor on, so before the first check
          // it asks for all of them; a failed check still decides the answer.
          const usable = this.transport.usableInstance(instance);
          const listing = this.transport
            .gitlab(instance, { signal: loadSignal })
            .listEnvironments(project, [...ALL_STATES]);
          // Handled below, once the check is in; not an unhandled rejection meanwhile.
          listing.catch(() => undefined);
          await usable;
          const { agentActivity, ...listed } = await listing.catch(error =>
            this.transport.explainGitlabFailure(instance, error),
          );
          // GitLab's word on the agents came with the listing: the reads
          // that follow take it, and only ask of agents it did not show.
          this.connections.seed(
            instance,
            listed.project.fullPath,
            listed.environments,
            agentActivity ?? {},
          );
          return listed;
        },
        { signal },
      )
      .catch(error => {
        this.transport.diagnostics.failure(
          instance.host,
          asGitlabEnvError(error),
          'fullPath' in project ? project.fullPath : `project ${project.id}`,
        );
        throw error;
      });
  }

  /**
   * One agent's environments with the namespaces its cluster gives those
   * GitLab gives none (cached per listing). Environments sharing a
   * namespace share its agent, so each agent's are mapped on their own and
   * one agent's lookup never waits for another's. An agent GitLab says is
   * not connected is not asked, and its environments say so.
   */
  private throughAgent(
    instance: GitlabInstanceConfig,
    listed: ProjectEnvironments,
    environments: GitlabEnvironment[],
    signal?: AbortSignal,
  ): Promise<GitlabEnvironment[]> {
    const agent = environments[0].agent;
    if (!agent)
      return mapNamespaces(environments, listed.project, {
        deploymentsOf: async () => undefined,
      });
    const digest = this.digestOf(listed, agent.id, environments);
    return this.cache.getOrLoad(
      `envns|${instance.host}|${listed.project.fullPath}|${agent.id}|${digest}`,
      async loadSignal => {
        let refused: string | undefined;
        const mapped = await namespaceSourcesThroughAgents({
          environments,
          project: listed.project,
          kas: async () => {
            try {
              await this.connections.refuseDisconnected(
                {
                  instance,
                  projectFullPath: listed.project.fullPath,
                  environmentName: environments[0].name,
                  agent,
                },
                loadSignal,
              );
            } catch (error) {
              refused = asGitlabEnvError(error).message;
              throw error;
            }
            return this.transport.kas(
              instance,
              await this.transport.usableInstance(instance),
              agent,
              loadSignal,
            );
          },
          bounds: () =>
            new ReadBounds(
              this.config.limits.maxPagesPerList,
              this.config.limits.maxObjectsPerEnvironment,
              () => undefined,
              loadSignal,
            ),
          workloadAnnotations: this.config.namespaceMapping.workloadAnnotations,
          onFailure: () => undefined,
        });
        return mapped.map(e =>
          refused && !e.namespace
            ? {
                ...e,
                namespaceLookup: `Its agent's cluster could not be looked in: ${refused}`,
              }
            : e,
        );
      },
      { signal },
    );
  }

  /**
   * What keys an agent's mapped environments: a digest of the environments
   * as listed. Kept per listing, which every read of the entity locates
   * again while it is cached.
   */
  private digestOf(
    listed: ProjectEnvironments,
    agentId: string,
    environments: GitlabEnvironment[],
  ): string {
    let digests = this.digests.get(listed);
    if (!digests) {
      digests = new Map();
      this.digests.set(listed, digests);
    }
    let digest = digests.get(agentId);
    if (digest === undefined) {
      digest = createHash('sha256')
        .update(JSON.stringify(environments))
        .digest('base64url');
      digests.set(agentId, digest);
    }
    return digest;
  }

  async locate(
    entity: Entity,
    options: LocateOptions = {},
  ): Promise<LocatedEntity> {
    const scope = readEntityScope(entity, this.config.instances);
    const { instance, project } = scope;
    const listed = await this.listing(instance, project, options.signal);
    const byAgent = new Map<string, GitlabEnvironment[]>();
    for (const environment of listed.environments) {
      const key = environment.agent?.id ?? '';
      byAgent.set(key, [...(byAgent.get(key) ?? []), environment]);
    }
    const awaited = options.environment
      ? listed.environments.find(e => e.slug === options.environment)?.agent
          ?.id ?? ''
      : undefined;
    const mapped = await Promise.all(
      [...byAgent].map(async ([agentId, environments]) => {
        const wait =
          options.clusterLookups !== 'known' &&
          (awaited === undefined || awaited === agentId);
        if (wait)
          return this.throughAgent(
            instance,
            listed,
            environments,
            options.signal,
          );
        // Started without the caller's signal: the reads that follow need it.
        const lookup = this.throughAgent(instance, listed, environments);
        return (
          (await valueIfSettled(lookup)) ??
          // Meanwhile GitLab's own namespaces, and which of them are shared.
          mapNamespaces(environments, listed.project, {
            deploymentsOf: async () => undefined,
          })
        );
      }),
    );
    const byId = new Map(mapped.flat().map(e => [e.id, e]));
    const environments = listed.environments.map(e => byId.get(e.id) ?? e);
    return {
      host: instance.host,
      project: listed.project,
      environments: environments.filter(e => isInScope(scope, e)),
      allEnvironments: environments,
      labelSelector: scope.labelSelector,
      warnings: listed.warnings,
    };
  }
}

/** The configured instance a located entity names: only configured instances are read. */
export function instanceOf(
  config: GitlabEnvConfig,
  host: string,
): GitlabInstanceConfig {
  const instance = config.instances.find(i => i.host === host);
  if (!instance) {
    throw failure(
      'INVALID_ANNOTATION',
      `The entity is located on the GitLab instance ${host}, which gitlabEnv.instances does not configure.`,
      { hint: 'Add the instance to gitlabEnv.instances, or fix the locator.' },
    );
  }
  return instance;
}

/** The located entity's environment of this slug, or ENVIRONMENT_NOT_FOUND. */
export function environmentOf(
  located: LocatedEntity,
  slug: string,
): GitlabEnvironment {
  const environment = located.environments.find(e => e.slug === slug);
  if (!environment)
    throw failure(
      'ENVIRONMENT_NOT_FOUND',
      `The project ${located.project.fullPath} has no environment '${slug}' shown for this entity.`,
      {
        hint: "The environment may have been deleted, or the entity's gitlab-env annotations filter it out.",
      },
    );
  return environment;
}
