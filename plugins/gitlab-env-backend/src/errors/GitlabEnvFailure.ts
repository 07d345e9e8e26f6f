import {
  AuthenticationError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import {
  GitlabEnvError,
  GitlabEnvErrorCode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * A failure with a stable code. Thrown inside the service; the router turns
 * it into an HTTP error, the resource reader into an entry of `errors`.
 */
export class GitlabEnvFailure extends Error {
  readonly detail: GitlabEnvError;

  constructor(detail: GitlabEnvError) {
    super(detail.message);
    this.name = 'GitlabEnvFailure';
    this.detail = detail;
  }
}

export function failure(
  code: GitlabEnvErrorCode,
  message: string,
  extra: Omit<GitlabEnvError, 'code' | 'message'> = {},
): GitlabEnvFailure {
  return new GitlabEnvFailure({ code, message, ...extra });
}

/** HTTP status of each code when it fails a whole request. */
const STATUS_BY_CODE: Record<GitlabEnvErrorCode, number> = {
  MISSING_ANNOTATION: 400,
  INVALID_ANNOTATION: 400,
  UNKNOWN_INSTANCE: 400,
  MISSING_TOKEN: 503,
  GITLAB_UNAUTHORIZED: 503,
  TOKEN_EXPIRED: 503,
  TOKEN_REVOKED: 503,
  TOKEN_SCOPE_MISSING: 503,
  GITLAB_VERSION_UNSUPPORTED: 503,
  PROJECT_NOT_FOUND: 404,
  ENVIRONMENT_NOT_FOUND: 404,
  NO_AGENT: 409,
  AGENT_NOT_VISIBLE: 409,
  AGENT_NOT_SHARED: 403,
  AGENT_NEVER_CONNECTED: 503,
  NO_NAMESPACE: 409,
  KAS_UNAVAILABLE: 503,
  AGENT_NOT_CONNECTED: 503,
  KIND_FORBIDDEN: 403,
  KIND_FAILED: 502,
  NO_RESOURCES: 404,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_MALFORMED: 502,
  UPSTREAM_ERROR: 502,
  NOT_ALLOWED: 403,
  INVALID_REQUEST: 400,
  ENTITY_NOT_FOUND: 404,
  INVALID_ENVIRONMENT_SETTING: 409,
  LIMIT_REACHED: 502,
  AGENT_CONFIG_MISSING: 404,
  AGENT_CONFIG_INVALID: 409,
  AGENT_CONFIG_UNREADABLE: 403,
  NAMESPACE_NOT_STALE: 409,
  NAMESPACE_DELETE_FAILED: 502,
  INVALID_BRANCH: 400,
  ACTION_FORBIDDEN: 403,
  OBJECT_NOT_FOUND: 404,
  OBJECT_CONFLICT: 409,
  ACTION_INVALID: 422,
  ACTION_NOT_APPLICABLE: 400,
  OUTSIDE_ENVIRONMENT: 403,
  LOGS_UNAVAILABLE: 404,
  CLAIM_UNVERIFIED: 403,
  NOT_OWNED: 403,
  NAMESPACE_CONTESTED: 409,
  WRITE_OUTCOME_UNKNOWN: 502,
  FLUX_OBJECT_MISSING: 404,
  TOO_MANY_STREAMS: 429,
  ROLLBACK_TOKEN_MISSING: 409,
  ROLLBACK_TOKEN_SCOPE: 403,
  JOB_RETRY_FORBIDDEN: 403,
  JOB_NOT_RETRYABLE: 409,
  DEPLOYMENT_NOT_FOUND: 404,
  REVISION_NOT_FOUND: 404,
  MERGE_REQUEST_NOT_FOUND: 404,
  TIMELINE_UNAVAILABLE: 503,
};

export function httpStatusOf(code: GitlabEnvErrorCode): number {
  return STATUS_BY_CODE[code];
}

/**
 * The @backstage/errors class that names the failure in the response body's
 * `error.name`; the status itself comes from `httpStatusOf`.
 */
export function toBackstageError(detail: GitlabEnvError): Error {
  const status = httpStatusOf(detail.code);
  if (status === 400) return new InputError(detail.message);
  if (status === 404) return new NotFoundError(detail.message);
  if (status === 403) return new NotAllowedError(detail.message);
  if (
    [
      'GITLAB_UNAUTHORIZED',
      'TOKEN_EXPIRED',
      'TOKEN_REVOKED',
      'TOKEN_SCOPE_MISSING',
    ].includes(detail.code)
  ) {
    return new AuthenticationError(detail.message);
  }
  if (status === 503) return new ServiceUnavailableError(detail.message);
  const error = new Error(detail.message);
  error.name =
    detail.code === 'UPSTREAM_TIMEOUT'
      ? 'GatewayTimeoutError'
      : 'BadGatewayError';
  if (status === 409) error.name = 'ConflictError';
  if (status === 422) error.name = 'InputError';
  if (status === 429) error.name = 'TooManyRequestsError';
  return error;
}

/** Anything thrown, as a GitlabEnvError; unknown errors stay opaque. */
export function asGitlabEnvError(error: unknown): GitlabEnvError {
  if (error instanceof GitlabEnvFailure) return error.detail;
  return {
    code: 'UPSTREAM_ERROR',
    message: 'An unexpected error occurred while reading from GitLab.',
  };
}

/** Codes that a retry within seconds would only repeat: the answer is about configuration, not load. */
const DEFINITIVE_CODES = new Set<GitlabEnvErrorCode>([
  'UNKNOWN_INSTANCE',
  'MISSING_TOKEN',
  'MISSING_ANNOTATION',
  'INVALID_ANNOTATION',
  'PROJECT_NOT_FOUND',
  'ENVIRONMENT_NOT_FOUND',
  'NO_AGENT',
  'AGENT_NOT_VISIBLE',
  'NO_NAMESPACE',
  'AGENT_NOT_SHARED',
  'INVALID_REQUEST',
  'ENTITY_NOT_FOUND',
  'INVALID_ENVIRONMENT_SETTING',
  'AGENT_NEVER_CONNECTED',
  'TOKEN_EXPIRED',
  'TOKEN_REVOKED',
  'TOKEN_SCOPE_MISSING',
  'GITLAB_VERSION_UNSUPPORTED',
]);

/** True for failures worth caching like a result (see CoalescingCache). */
export function isDefinitiveFailure(error: unknown): boolean {
  return (
    error instanceof GitlabEnvFailure && DEFINITIVE_CODES.has(error.detail.code)
  );
}
