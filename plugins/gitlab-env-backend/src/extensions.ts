import { createExtensionPoint } from '@backstage/backend-plugin-api';
import {
  HealthRule,
  RelationSource,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { GitlabEnvLocator } from './locating';
import type { GitlabEnvClusterSource } from './reading';

/**
 * Lets backend modules add health rules for kinds the built-in rules do not
 * know (or assess differently). Rules run on the server when an
 * environment's graph is built; the page gets their results with the graph.
 *
 * @public
 */
export interface GitlabEnvHealthRulesExtensionPoint {
  /**
   * The rule for one API group (`''` for the core group) and kind. It is
   * tried before the built-in rule; returning undefined leaves the object
   * to the built-in one. Two rules for one group and kind stop the backend
   * at start.
   */
  addHealthRule(options: {
    group: string;
    kind: string;
    rule: HealthRule;
  }): void;
}

/**
 * The extension point of GitlabEnvHealthRulesExtensionPoint.
 *
 * @public
 */
export const gitlabEnvHealthRulesExtensionPoint =
  createExtensionPoint<GitlabEnvHealthRulesExtensionPoint>({
    id: 'gitlab-env.health-rules',
  });

/**
 * Lets backend modules add relations to the resource graph, beside the
 * built-in ones (owner references, selectors, routes, mounts, Flux
 * inventories, ...): a relation source names the kinds it applies to and
 * adds the edges an object of those kinds implies, through the engine's
 * lookups (see RelationContext). Edges are inferred on the server, on
 * reads and on the live graph alike; a source's edges follow the objects
 * it looked up as they change.
 *
 * @public
 */
export interface GitlabEnvRelationsExtensionPoint {
  /**
   * Adds a relation source; sources run after the built-in ones, in the
   * order modules add them. A malformed source, or an id another source
   * has, stops the backend at start.
   */
  addRelationSource(source: RelationSource): void;
}

/**
 * The extension point of GitlabEnvRelationsExtensionPoint.
 *
 * @public
 */
export const gitlabEnvRelationsExtensionPoint =
  createExtensionPoint<GitlabEnvRelationsExtensionPoint>({
    id: 'gitlab-env.relations',
  });

/**
 * Lets a backend module change how catalog entities map to GitLab projects
 * and environments (by default: the entity's annotations, then GitLab).
 *
 * @public
 */
export interface GitlabEnvLocatorExtensionPoint {
  /**
   * Replaces the locator. The factory gets the default one, to wrap (e.g.
   * fall back to it) or ignore. Setting it twice stops the backend at
   * start.
   */
  setLocator(
    factory: (defaultLocator: GitlabEnvLocator) => GitlabEnvLocator,
  ): void;
}

/**
 * The extension point of GitlabEnvLocatorExtensionPoint.
 *
 * @public
 */
export const gitlabEnvLocatorExtensionPoint =
  createExtensionPoint<GitlabEnvLocatorExtensionPoint>({
    id: 'gitlab-env.locator',
  });

/**
 * Lets a backend module serve the Kubernetes objects of some agents'
 * clusters itself instead of KAS (another cluster source).
 *
 * @public
 */
export interface GitlabEnvObjectSourceExtensionPoint {
  /** Adds a source; sources are asked in the order modules add them, before KAS. */
  addClusterSource(source: GitlabEnvClusterSource): void;
}

/**
 * The extension point of GitlabEnvObjectSourceExtensionPoint.
 *
 * @public
 */
export const gitlabEnvObjectSourceExtensionPoint =
  createExtensionPoint<GitlabEnvObjectSourceExtensionPoint>({
    id: 'gitlab-env.object-source',
  });
