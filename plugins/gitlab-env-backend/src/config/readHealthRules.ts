import { Config } from '@backstage/config';
import {
  HealthRuleRegistration,
  parseDeclarativeHealthRules,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * `gitlabEnv.health.rules`: declarative health rules, validated at start so
 * a wrong rule stops the backend with every problem named by its key.
 */
export function readHealthRules(root: Config): HealthRuleRegistration[] {
  const raw = root.getOptional('gitlabEnv.health.rules');
  return parseDeclarativeHealthRules(raw, 'gitlabEnv.health.rules');
}
