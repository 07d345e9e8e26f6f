import { LoggerService } from '@backstage/backend-plugin-api';
import { GitlabEnvErrorResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import {
  asGitlabEnvError,
  failure,
  GitlabEnvFailure,
  httpStatusOf,
  toBackstageError,
} from '../errors';

/** Express's own 400s (a malformed percent-encoding in the path) are the caller's mistake. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return (
    error instanceof URIError ||
    (typeof status === 'number' && status >= 400 && status < 500)
  );
}

/** Answers failures with their code's status and a GitlabEnvErrorResponse body. */
export function gitlabEnvErrorHandler(
  logger: LoggerService,
): express.ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    let detail;
    if (error instanceof GitlabEnvFailure) detail = error.detail;
    else if (isClientError(error)) {
      detail = failure(
        'INVALID_REQUEST',
        'The request could not be read (a malformed percent-encoding or parameter).',
        { hint: 'Open the entity again from the catalog.' },
      ).detail;
    } else {
      // Unknown errors may quote upstream data; log them, answer generically.
      logger.error('gitlab-env request failed', error as Error);
      detail = asGitlabEnvError(error);
    }
    const backstageError = toBackstageError(detail);
    const body: GitlabEnvErrorResponse = {
      error: { name: backstageError.name, message: detail.message },
      gitlabEnv: detail,
    };
    res.status(httpStatusOf(detail.code)).json(body);
  };
}
