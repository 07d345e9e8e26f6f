import { ResponseError } from '@backstage/errors';
import { GitlabEnvLiveError } from './live/GitlabEnvLiveError';
import {
  GITLAB_ENV_ERROR_CODES,
  GitlabEnvError,
  GitlabEnvErrorCode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/**
 * A failed call to the gitlab-env backend. Carries the backend's stable
 * error code so the UI can render the panel for that failure; `cause` is the
 * `ResponseError` with the raw response.
 *
 * @public
 */
export class GitlabEnvApiError extends Error {
  readonly name = 'GitlabEnvApiError';
  readonly code: GitlabEnvErrorCode | undefined;
  readonly hint: string | undefined;
  readonly statusCode: number;
  readonly detail: GitlabEnvError | undefined;
  readonly cause: ResponseError;

  constructor(cause: ResponseError, detail?: GitlabEnvError) {
    super(detail?.message ?? cause.message);
    this.cause = cause;
    this.detail = detail;
    this.code = detail?.code;
    this.hint = detail?.hint;
    this.statusCode = cause.statusCode;
  }

  static async fromResponse(response: Response): Promise<GitlabEnvApiError> {
    // ResponseError keeps a body only in Backstage's own error shape (with
    // `response`), so the `gitlabEnv` part is read from a copy first.
    const text = await response
      .clone()
      .text()
      .catch(() => '');
    return new GitlabEnvApiError(
      await ResponseError.fromResponse(response),
      readGitlabEnvError(parseJson(text)),
    );
  }
}

/** True for errors that came from the backend, with or without a code. @public */
export function isGitlabEnvApiError(
  error: unknown,
): error is GitlabEnvApiError {
  return error instanceof GitlabEnvApiError;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// The body comes from the network: trust its shape only after checking it.
function readGitlabEnvError(body: unknown): GitlabEnvError | undefined {
  const candidate = (body as { gitlabEnv?: unknown } | undefined)?.gitlabEnv;
  if (!candidate || typeof candidate !== 'object') return undefined;
  const { code, message, hint, resource, upstreamStatus } = candidate as Record<
    string,
    unknown
  >;
  if (
    typeof code !== 'string' ||
    !(GITLAB_ENV_ERROR_CODES as readonly string[]).includes(code) ||
    typeof message !== 'string'
  ) {
    return undefined;
  }
  return {
    code: code as GitlabEnvErrorCode,
    message,
    hint: typeof hint === 'string' ? hint : undefined,
    resource: typeof resource === 'string' ? resource : undefined,
    upstreamStatus:
      typeof upstreamStatus === 'number' ? upstreamStatus : undefined,
  };
}

/**
 * The backend's typed error behind a failure, whether a read answered it
 * (`GitlabEnvApiError`) or the live stream sent it (`GitlabEnvLiveError`).
 *
 * @public
 */
export function gitlabEnvErrorDetail(
  error: unknown,
): GitlabEnvError | undefined {
  if (error instanceof GitlabEnvApiError) return error.detail;
  if (error instanceof GitlabEnvLiveError) return error.detail;
  return undefined;
}
