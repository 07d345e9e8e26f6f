/**
 * Annotations the widely used GitLab plugin for Backstage and its catalog
 * processor already write, so catalogs that have them work unchanged.
 */

/** `group/sub/project`: the entity's GitLab project by path. @public */
export const GITLAB_PROJECT_SLUG_ANNOTATION = 'gitlab.com/project-slug';
/** The entity's GitLab project by numeric id. @public */
export const GITLAB_PROJECT_ID_ANNOTATION = 'gitlab.com/project-id';
/** The GitLab host; defaults to the first configured instance. @public */
export const GITLAB_INSTANCE_ANNOTATION = 'gitlab.com/instance';

/** Prefix of this plugin's own, optional annotations. @public */
export const GITLAB_ENV_ANNOTATION_PREFIX = 'gitlab-env';
/**
 * Comma-separated environment name globs to show, e.g. `production*, staging`.
 * @public
 */
export const GITLAB_ENV_ENVIRONMENTS_ANNOTATION = `${GITLAB_ENV_ANNOTATION_PREFIX}/environments`;
/** Comma-separated deployment tiers to show, e.g. `production, staging`. @public */
export const GITLAB_ENV_TIERS_ANNOTATION = `${GITLAB_ENV_ANNOTATION_PREFIX}/tiers`;
/** A Kubernetes label selector applied to every cluster read. @public */
export const GITLAB_ENV_LABEL_SELECTOR_ANNOTATION = `${GITLAB_ENV_ANNOTATION_PREFIX}/label-selector`;
