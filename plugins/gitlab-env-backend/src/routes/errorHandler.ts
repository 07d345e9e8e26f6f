import { LoggerService } from '@backstage/backend-plugin-api';
import { GitlabEnvErrorResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import {
  asGitlabEnvError,
  GitlabEnvFailure,
  httpStatusOf,
  toBackstageError,
} from '../errors';

/** Answers failures with their code's status and a GitlabEnvErrorResponse body. */
export function gitlabEnvErrorHandler(
  logger: LoggerService,
): express.ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (!(error instanceof GitlabEnvFailure)) {
      // Unknown errors may quote upstream data; log them, answer generically.
      logger.error('gitlab-env request failed', error as Error);
    }
    const detail = asGitlabEnvError(error);
    const backstageError = toBackstageError(detail);
    const body: GitlabEnvErrorResponse = {
      error: { name: backstageError.name, message: detail.message },
      gitlabEnv: detail,
    };
    res.status(httpStatusOf(detail.code)).json(body);
  };
}
