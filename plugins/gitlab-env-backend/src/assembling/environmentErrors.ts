import {
  GitlabEnvError,
  GitlabEnvironment,
  HealthRuleSet,
  HealthSummary,
  RelationSet,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { markExpectedRefusals } from './expectedRefusals';

/** How the engine judges what it assembles. */
export interface Judging {
  healthRules: HealthRuleSet | undefined;
  relations?: RelationSet;
  expectedForbiddenKinds: string[];
}

/**
 * An environment's errors from what its read met: refusals the agents make
 * on purpose marked as information, the object limit, and NO_RESOURCES
 * when nothing was found and nothing failed.
 */
export function environmentErrors(read: {
  listed: GitlabEnvError[];
  /** The read's own warnings (limits, malformed items). */
  warnings: GitlabEnvError[];
  environment: GitlabEnvironment;
  labelSelector: string | undefined;
  expectedForbiddenKinds: string[];
  limitedTo?: { max: number; shown: number };
  empty: boolean;
}): GitlabEnvError[] {
  const { environment, labelSelector, limitedTo } = read;
  const namespace = environment.namespace!;
  // Refusals the agents make on purpose are information, not gaps.
  const errors = markExpectedRefusals(
    [...read.listed, ...(environment.errors ?? []), ...read.warnings],
    read.expectedForbiddenKinds,
    environment.fluxResourcePath,
  );
  if (limitedTo) {
    errors.push({
      code: 'LIMIT_REACHED',
      message: `This environment has more than ${limitedTo.max} objects; showing the first ${limitedTo.shown}. Narrow it with the gitlab-env/label-selector annotation.`,
      hint: 'Set gitlab-env/label-selector on the entity so it reads only its own objects, or raise gitlabEnv.limits.maxObjectsPerEnvironment.',
    });
  }
  if (read.empty && errors.length === 0) {
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
  return errors;
}

/**
 * Errors that leave the data complete: the read found all there is (the
 * Flux object the settings name does not exist: said, not a gap).
 */
const COMPLETE_READ_CODES = new Set(['NO_RESOURCES', 'FLUX_OBJECT_MISSING']);

export function incompleteness(errors: GitlabEnvError[]): GitlabEnvError[] {
  return errors.filter(e => !e.expected && !COMPLETE_READ_CODES.has(e.code));
}

/** A summary from incomplete data says so: never a plain Healthy. */
export function markPartial(
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

/** An environment with what its read could not get, next to its own settings' errors. */
export function withReadErrors(
  environment: GitlabEnvironment,
  errors: GitlabEnvError[],
): GitlabEnvironment {
  const own = environment.errors ?? [];
  const added = errors.filter(e => !own.includes(e));
  const all = [...own, ...added];
  return all.length > 0 ? { ...environment, errors: all } : environment;
}
