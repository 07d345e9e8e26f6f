import { Entity } from '@backstage/catalog-model';
import {
  EnvironmentActionScope,
  GitlabEnvironment,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvConfig } from '../config';
import { GitlabEnvFailure, isDefinitiveFailure } from '../errors';
import { CoalescingCache } from '../caching/cache';
import { listKind } from '../reading/objectSource';
import { ReadBounds } from '../reading/readBounds';
import type { KasClient } from '../transport/kasClient';
import { instanceOf } from './EnvironmentLocator';
import type {
  GitlabEnvLocator,
  LocateOptions,
  LocatedEntity,
} from './EnvironmentLocator';
import { GITLAB_DEPLOYMENT_KIND } from './gitlabDeployments';
import {
  actionScopeOf,
  claimRefusal,
  NamespaceClaims,
  NamespaceDeployment,
} from './ownership';
import { PortalClaims } from './portalClaims';

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : [];

/** The namespaces an agent's GitLabDeployments give, and to whom. */
export function namespaceDeployments(
  objects: readonly KubernetesObject[],
): NamespaceDeployment[] {
  return objects.flatMap(o => {
    const spec = o.spec;
    const name = o.metadata?.name;
    if (!spec || typeof spec !== 'object' || typeof name !== 'string')
      return [];
    const namespace =
      typeof spec.namespace === 'string' ? spec.namespace : name;
    return [
      {
        name,
        namespace,
        serves: [
          ...strings(spec.projects),
          ...strings(spec.groups).map(g => `${g}/*`),
        ],
      },
    ];
  });
}

/**
 * The one locator as every route sees it: the configured one (the
 * default, or a module's through gitlabEnvLocatorExtensionPoint), with
 * what the entity owns applied to each environment (`actionScope`, see
 * ownership.ts). Wrapping the configured locator means no module's
 * mapping can skip ownership. A located entity's scope uses the portal's
 * claims as last indexed; a write asks for them afresh and for the
 * agent's GitLabDeployments (scopeForWrite).
 */
export class OwningLocator implements GitlabEnvLocator {
  private readonly deployments: CoalescingCache;

  constructor(
    private readonly inner: GitlabEnvLocator,
    private readonly config: GitlabEnvConfig,
    private readonly claims?: PortalClaims,
  ) {
    const ttlMs = config.cacheTtlSeconds * 1000;
    this.deployments = new CoalescingCache({
      ttlMs,
      failureTtlMs: error =>
        isDefinitiveFailure(error)
          ? ttlMs
          : config.transientCacheSeconds * 1000,
      deadlineMs: config.requestDeadlineMs,
    });
  }

  async locate(
    entity: Entity,
    options: LocateOptions = {},
  ): Promise<LocatedEntity> {
    const located = await this.inner.locate(entity, options);
    return this.own(entity, located, this.claims?.peek());
  }

  private own(
    entity: Entity,
    located: LocatedEntity,
    claims: NamespaceClaims | undefined,
    deployments?: (agentId: string) => NamespaceDeployment[] | undefined,
  ): LocatedEntity {
    const entityRefusal = claimRefusal(
      entity,
      located,
      instanceOf(this.config, located.host),
      this.config.ownership,
    );
    return {
      ...located,
      environments: located.environments.map(environment => ({
        ...environment,
        actionScope: actionScopeOf(environment, located, {
          entityRefusal,
          platformNamespaces: this.config.ownership.platformNamespaces,
          claims,
          deployments: environment.agent
            ? deployments?.(environment.agent.id)
            : undefined,
        }),
      })),
    };
  }

  /** The portal's claims on namespaces, built first if there are none yet. */
  async portalClaims(): Promise<NamespaceClaims | undefined> {
    return this.claims?.current();
  }

  /**
   * The environment's scope at the moment of a write: the portal's claims
   * (the last index, built first if there is none) and the agent's
   * GitLabDeployments, which decide a namespace GitLab's settings name
   * when one of them gives it.
   */
  async scopeForWrite(
    entity: Entity,
    located: LocatedEntity,
    environment: GitlabEnvironment,
    kas: KasClient,
  ): Promise<EnvironmentActionScope> {
    const claims = await this.claims?.current();
    const agent = environment.agent;
    const deployments = agent
      ? await this.deployments.getOrLoad(
          `gld|${located.host}|${agent.id}`,
          async signal =>
            namespaceDeployments(
              await listKind(kas, GITLAB_DEPLOYMENT_KIND, {
                bounds: new ReadBounds(
                  this.config.limits.maxPagesPerList,
                  this.config.limits.maxObjectsPerEnvironment,
                  () => undefined,
                  signal,
                ),
              }).catch(error => {
                // RBAC hides them from the agent: none it could act under.
                if (
                  error instanceof GitlabEnvFailure &&
                  error.detail.code === 'KIND_FORBIDDEN'
                )
                  return [];
                throw error;
              }),
            ),
        )
      : undefined;
    const owned = this.own(
      entity,
      { ...located, environments: [environment] },
      claims,
      () => deployments,
    );
    return owned.environments[0].actionScope!;
  }
}
