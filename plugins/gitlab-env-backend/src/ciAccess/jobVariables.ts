import {
  GitlabEnvironment,
  gitlabSlugify,
  PatternLimitError,
  wildcardMatches,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';

/** GitLab's CI_COMMIT_REF_SLUG (and CI_PROJECT_PATH_SLUG): Gitlab::Utils.slugify. */
export const refSlug = gitlabSlugify;

export interface JobContext {
  project: { id: string; fullPath: string };
  defaultBranch: string;
  environment: Pick<
    GitlabEnvironment,
    'name' | 'slug' | 'tier' | 'externalUrl'
  >;
  branch: string;
  /** Protected branch names and wildcards; undefined when GitLab did not say. */
  protectedBranches?: string[];
}

/**
 * Whether GitLab protects `branch`: a protected branch name or wildcard
 * (`release/*`) matches it whole (ProtectedRef / RefMatcher).
 */
function isProtectedBy(patterns: string[], branch: string): boolean {
  try {
    return patterns.some(p => wildcardMatches(p, branch));
  } catch (error) {
    if (!(error instanceof PatternLimitError)) throw error;
    throw failure(
      'UPSTREAM_MALFORMED',
      `GitLab answered a protected branch that cannot be matched: ${error.message}.`,
    );
  }
}

/**
 * The predefined CI/CD variables a deployment job of the environment would
 * have when its pipeline runs for a push to `branch`
 * (https://docs.gitlab.com/ci/variables/predefined_variables/).
 */
export function jobVariables(context: JobContext): Record<string, string> {
  const { project, environment, branch } = context;
  const path = project.fullPath;
  const slash = path.lastIndexOf('/');
  const isProtected = context.protectedBranches
    ? isProtectedBy(context.protectedBranches, branch)
    : branch === context.defaultBranch;
  const variables: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PIPELINE_SOURCE: 'push',
    CI_PROJECT_ID: project.id,
    CI_PROJECT_PATH: path,
    CI_PROJECT_PATH_SLUG: refSlug(path),
    CI_PROJECT_NAME: path.slice(slash + 1),
    CI_PROJECT_NAMESPACE: slash > 0 ? path.slice(0, slash) : '',
    CI_PROJECT_ROOT_NAMESPACE: path.split('/')[0],
    CI_DEFAULT_BRANCH: context.defaultBranch,
    CI_COMMIT_REF_NAME: branch,
    CI_COMMIT_BRANCH: branch,
    CI_COMMIT_REF_SLUG: refSlug(branch),
    CI_COMMIT_REF_PROTECTED: isProtected ? 'true' : 'false',
    CI_ENVIRONMENT_NAME: environment.name,
    CI_ENVIRONMENT_SLUG: environment.slug,
    CI_ENVIRONMENT_TIER: environment.tier,
    CI_ENVIRONMENT_ACTION: 'start',
  };
  if (environment.externalUrl)
    variables.CI_ENVIRONMENT_URL = environment.externalUrl;
  return variables;
}
