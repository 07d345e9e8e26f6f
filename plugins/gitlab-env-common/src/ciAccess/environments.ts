import { stringOf } from '../k8s/objects';
import { wildcardMatches } from './wildcard';

/**
 * `ci_access.*.environments`: environment names, where `*` matches any run
 * of characters (like environment scopes), e.g. `review/*`.
 * https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/#restrict-project-and-group-access-to-specific-environments
 *
 * @public
 */
export function environmentMatches(
  pattern: string,
  environment: string,
): boolean {
  return wildcardMatches(pattern, environment);
}

/** @public */
export function environmentAllowed(
  patterns: string[] | undefined,
  environment: string | undefined,
): boolean {
  if (!patterns || patterns.length === 0) return true;
  if (!environment) return false;
  return patterns.some(p => environmentMatches(stringOf(p), environment));
}
