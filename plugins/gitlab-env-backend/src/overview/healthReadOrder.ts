import { Entity } from '@backstage/catalog-model';
import {
  DEPLOYMENT_TIERS,
  GitlabEnvironment,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** One environment whose resources the overview still has to read. */
export interface HealthRead {
  entity: Entity;
  environment: GitlabEnvironment;
  /** The GitLab instance (host) of the environment's project. */
  instance?: string;
}

/**
 * Production first, then staging, testing, development and other: when a
 * cold read of hundreds of environments takes a while, the environments
 * people look at first settle first. Stable within a tier.
 */
export function healthReadOrder(reads: HealthRead[]): HealthRead[] {
  const rank = (read: HealthRead) =>
    DEPLOYMENT_TIERS.indexOf(read.environment.tier);
  return [...reads].sort((a, b) => rank(a) - rank(b));
}
