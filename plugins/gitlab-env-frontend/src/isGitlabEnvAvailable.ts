import { Entity } from '@backstage/catalog-model';
import {
  GITLAB_PROJECT_ID_ANNOTATION,
  GITLAB_PROJECT_SLUG_ANNOTATION,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * True when the entity names its GitLab project, so the Environments tab has
 * something to show.
 *
 * @public
 */
export function isGitlabEnvAvailable(entity: Entity): boolean {
  const annotations = entity.metadata.annotations ?? {};
  return Boolean(
    annotations[GITLAB_PROJECT_SLUG_ANNOTATION]?.trim() ||
      annotations[GITLAB_PROJECT_ID_ANNOTATION]?.trim(),
  );
}
