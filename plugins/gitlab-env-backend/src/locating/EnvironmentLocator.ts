import { Entity } from '@backstage/catalog-model';
import {
  GitlabEnvError,
  GitlabEnvironment,
  GitlabProjectRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvConfig, GitlabInstanceConfig } from '../config';
import { asGitlabEnvError, failure } from '../errors';
import { isInScope, readEntityScope } from './entityScope';
import { SharedReadCache } from '../caching/sharedCache';
import { GitlabEnvTransport } from '../transport/SharedTransport';
import { namespaceSourcesThroughAgents } from './gitlabDeployments';
import { ReadBounds } from '../reading/readBounds';

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
  locate(
    entity: Entity,
    options?: { signal?: AbortSignal },
  ): Promise<LocatedEntity>;
}

const ALL_STATES = ['available', 'stopping', 'stopped'] as const;

/** The default locator: annotations, then one cached GitLab listing per project. */
export class AnnotationLocator implements GitlabEnvLocator {
  constructor(
    private readonly config: GitlabEnvConfig,
    private readonly transport: GitlabEnvTransport,
    private readonly cache: SharedReadCache,
  ) {}

  async locate(
    entity: Entity,
    options: { signal?: AbortSignal } = {},
  ): Promise<LocatedEntity> {
    const scope = readEntityScope(entity, this.config.instances);
    const { instance, project } = scope;
    const key = `env|${instance.host}|${JSON.stringify(project)}`;
    const data = await this.cache
      .getOrLoad(
        key,
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
          const listed = await listing.catch(error =>
            this.transport.explainGitlabFailure(instance, error),
          );
          // An environment GitLab gives no namespace may take one from the
          // cluster: a GitLabDeployment object, workloads carrying its GitLab
          // markers, or its Flux inventory.
          const environments = await namespaceSourcesThroughAgents({
            environments: listed.environments,
            project: listed.project,
            kas: async agent =>
              this.transport.kas(
                instance,
                await this.transport.usableInstance(instance),
                agent,
                loadSignal,
              ),
            bounds: () =>
              new ReadBounds(
                this.config.limits.maxPagesPerList,
                this.config.limits.maxObjectsPerEnvironment,
                () => undefined,
                loadSignal,
              ),
            workloadAnnotations:
              this.config.namespaceMapping.workloadAnnotations,
            onFailure: () => undefined,
          });
          return { ...listed, environments };
        },
        { signal: options.signal },
      )
      .catch(error => {
        this.transport.diagnostics.failure(
          instance.host,
          asGitlabEnvError(error),
          'fullPath' in project ? project.fullPath : `project ${project.id}`,
        );
        throw error;
      });
    return {
      host: instance.host,
      project: data.project,
      environments: data.environments.filter(e => isInScope(scope, e)),
      allEnvironments: data.environments,
      labelSelector: scope.labelSelector,
      warnings: data.warnings,
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
