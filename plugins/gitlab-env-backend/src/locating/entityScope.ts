import { Entity } from '@backstage/catalog-model';
import {
  DEPLOYMENT_TIERS,
  DeploymentTier,
  GITLAB_ENV_ENVIRONMENTS_ANNOTATION,
  GITLAB_ENV_LABEL_SELECTOR_ANNOTATION,
  GITLAB_ENV_TIERS_ANNOTATION,
  GITLAB_INSTANCE_ANNOTATION,
  GITLAB_PROJECT_ID_ANNOTATION,
  GITLAB_PROJECT_SLUG_ANNOTATION,
  GitlabEnvironment,
  PATTERN_LIMITS,
  wildcardMatches,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabInstanceConfig } from '../config';
import { failure } from '../errors';
import { isProjectFullPath } from '../validation';
import { ProjectLocator } from '../transport/gitlabClient';

/** What an entity's annotations ask for, validated. */
export interface EntityScope {
  instance: GitlabInstanceConfig;
  project: ProjectLocator;
  /** Environment name globs (`*`, `?`), matched by the engine's linear matcher. */
  environmentGlobs?: string[];
  tiers?: DeploymentTier[];
  labelSelector?: string;
}

function invalid(annotation: string, message: string) {
  return failure(
    'INVALID_ANNOTATION',
    `The annotation ${annotation} ${message}`,
    {
      hint: `Fix ${annotation} in the entity's catalog-info.yaml.`,
    },
  );
}

function list(value: string): string[] {
  return value
    .split(',')
    .map(v => v.trim())
    .filter(Boolean);
}

const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** Splits a selector on the commas that are not inside `in (a, b)` sets. */
function requirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts;
}

/** True when `selector` is a Kubernetes label selector in its string form. @public */
export function isValidLabelSelector(selector: string): boolean {
  return requirements(selector).every(req => {
    let m = req.match(/^!?\s*([^\s=!<>()]+)$/);
    if (m) return LABEL_KEY.test(m[1]);
    m = req.match(/^([^\s=!<>()]+)\s*(==|=|!=)\s*([^\s=!<>(),]*)$/);
    if (m) return LABEL_KEY.test(m[1]) && LABEL_VALUE.test(m[3]);
    m = req.match(/^([^\s=!<>()]+)\s+(in|notin)\s*\(([^()]*)\)$/);
    if (m)
      return LABEL_KEY.test(m[1]) && list(m[3]).every(v => LABEL_VALUE.test(v));
    return false;
  });
}

function instanceFor(
  entity: Entity,
  instances: GitlabInstanceConfig[],
): GitlabInstanceConfig {
  const host =
    entity.metadata.annotations?.[GITLAB_INSTANCE_ANNOTATION]?.trim();
  if (!host) return instances[0];
  const instance = instances.find(i => i.host === host);
  if (!instance) {
    throw failure(
      'UNKNOWN_INSTANCE',
      `The entity names the GitLab instance ${host}, which is not configured. Configured: ${instances
        .map(i => i.host)
        .join(', ')}.`,
      {
        hint: `Fix ${GITLAB_INSTANCE_ANNOTATION}, or add ${host} under gitlabEnv.instances.`,
      },
    );
  }
  return instance;
}

function projectFor(entity: Entity): ProjectLocator {
  const annotations = entity.metadata.annotations ?? {};
  const slug = annotations[GITLAB_PROJECT_SLUG_ANNOTATION]?.trim();
  const id = annotations[GITLAB_PROJECT_ID_ANNOTATION]?.trim();
  if (slug) {
    if (!isProjectFullPath(slug)) {
      throw invalid(
        GITLAB_PROJECT_SLUG_ANNOTATION,
        `must be a project path such as group/project, got '${slug}'.`,
      );
    }
    return { fullPath: slug };
  }
  if (id) {
    if (!/^[1-9]\d*$/.test(id)) {
      throw invalid(
        GITLAB_PROJECT_ID_ANNOTATION,
        `must be a numeric project id, got '${id}'.`,
      );
    }
    return { id };
  }
  throw failure(
    'MISSING_ANNOTATION',
    `The entity has neither the ${GITLAB_PROJECT_SLUG_ANNOTATION} nor the ${GITLAB_PROJECT_ID_ANNOTATION} annotation.`,
    {
      hint: `Add ${GITLAB_PROJECT_SLUG_ANNOTATION}: group/project to the entity's catalog-info.yaml.`,
    },
  );
}

/** Reads and validates the entity's annotations against the configured instances. */
export function readEntityScope(
  entity: Entity,
  instances: GitlabInstanceConfig[],
): EntityScope {
  const annotations = entity.metadata.annotations ?? {};
  const scope: EntityScope = {
    instance: instanceFor(entity, instances),
    project: projectFor(entity),
  };
  const globs = annotations[GITLAB_ENV_ENVIRONMENTS_ANNOTATION];
  if (globs !== undefined) {
    const items = list(globs);
    if (
      items.length === 0 ||
      items.some(
        g => /[\s]/.test(g) || g.length > PATTERN_LIMITS.maxPatternLength,
      )
    ) {
      throw invalid(
        GITLAB_ENV_ENVIRONMENTS_ANNOTATION,
        `must list environment name globs (at most ${
          PATTERN_LIMITS.maxPatternLength
        } characters each) separated by commas, got '${globs.slice(0, 200)}'.`,
      );
    }
    scope.environmentGlobs = items;
  }
  const tiers = annotations[GITLAB_ENV_TIERS_ANNOTATION];
  if (tiers !== undefined) {
    const items = list(tiers).map(t => t.toLowerCase());
    const bad = items.filter(
      t => !(DEPLOYMENT_TIERS as readonly string[]).includes(t),
    );
    if (items.length === 0 || bad.length > 0) {
      throw invalid(
        GITLAB_ENV_TIERS_ANNOTATION,
        `must list tiers among ${DEPLOYMENT_TIERS.join(', ')}, got '${tiers}'.`,
      );
    }
    scope.tiers = items as DeploymentTier[];
  }
  const selector = annotations[GITLAB_ENV_LABEL_SELECTOR_ANNOTATION]?.trim();
  if (selector !== undefined) {
    if (!selector || !isValidLabelSelector(selector)) {
      throw invalid(
        GITLAB_ENV_LABEL_SELECTOR_ANNOTATION,
        `must be a Kubernetes label selector such as app.kubernetes.io/part-of=shop, got '${selector}'.`,
      );
    }
    scope.labelSelector = selector;
  }
  return scope;
}

/** Whether the entity's environment and tier filters keep this environment. */
export function isInScope(
  scope: EntityScope,
  environment: GitlabEnvironment,
): boolean {
  if (scope.environmentGlobs) {
    // GitLab's names have at most 255 characters; a longer one is not
    // GitLab's and matches no glob.
    const name = environment.name;
    if (name.length > PATTERN_LIMITS.maxSubjectLength) return false;
    if (
      !scope.environmentGlobs.some(g =>
        wildcardMatches(g, name, { singleCharacter: true }),
      )
    )
      return false;
  }
  if (scope.tiers && !scope.tiers.includes(environment.tier)) return false;
  return true;
}
