import { createExtensionPoint } from '@backstage/backend-plugin-api';
import { HealthRule } from '@gitlab-env/backstage-plugin-gitlab-env-common';

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
