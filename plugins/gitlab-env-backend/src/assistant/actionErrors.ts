import {
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { GitlabEnvError } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure, httpStatusOf } from '../errors';

/**
 * A failure as the actions runtime passes it on: one of the
 * @backstage/errors classes the MCP actions backend hands to the model as
 * `<name>: <message>` (others become a protocol error without the
 * message), its text the code, what happened and what to do. Upstream and
 * configuration failures (GitLab, KAS, the backend's token) are the
 * service's, not the caller's: ServiceUnavailableError.
 */
export function toActionError(detail: GitlabEnvError): Error {
  const text = [
    `${detail.code}: ${detail.message}`,
    detail.hint && `What to do: ${detail.hint}`,
  ]
    .filter(Boolean)
    .join(' ');
  const status = httpStatusOf(detail.code);
  if (status === 400 || status === 422) return new InputError(text);
  if (status === 403) return new NotAllowedError(text);
  if (status === 404) return new NotFoundError(text);
  if (status === 409) return new ConflictError(text);
  return new ServiceUnavailableError(text);
}

/** Runs an action's work, its typed failures turned into action errors (see toActionError). */
export async function withActionErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GitlabEnvFailure) throw toActionError(error.detail);
    throw error;
  }
}
