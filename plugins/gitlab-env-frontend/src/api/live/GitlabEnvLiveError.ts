import { GitlabEnvError } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * An environment the live stream cannot follow (not allowed, not found, no
 * agent), with the backend's typed error as `detail`, like a
 * `GitlabEnvApiError` of a read.
 *
 * @public
 */
export class GitlabEnvLiveError extends Error {
  readonly name = 'GitlabEnvLiveError';
  readonly detail: GitlabEnvError;
  readonly code: GitlabEnvError['code'];

  constructor(detail: GitlabEnvError) {
    super(detail.message);
    this.detail = detail;
    this.code = detail.code;
  }
}
