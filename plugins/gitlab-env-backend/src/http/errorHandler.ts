import { AuditorService, LoggerService } from '@backstage/backend-plugin-api';
import { GitlabEnvErrorResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import {
  asGitlabEnvError,
  failure,
  GitlabEnvFailure,
  httpStatusOf,
  toBackstageError,
} from '../errors';
import { wasAudited } from './pipeline';

/** Express's own 400s (a malformed percent-encoding in the path) are the caller's mistake. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return (
    error instanceof URIError ||
    (typeof status === 'number' && status >= 400 && status < 500)
  );
}

/**
 * Answers failures with their code's status and a GitlabEnvErrorResponse
 * body. A failure that never reached the request pipeline (express
 * refusing a malformed path before any route ran) is audited here, so no
 * request goes unrecorded.
 */
export function gitlabEnvErrorHandler(
  logger: LoggerService,
  auditor?: AuditorService,
): express.ErrorRequestHandler {
  return async (error, req, res, next) => {
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
    if (auditor && !wasAudited(error)) {
      try {
        const event = await auditor.createEvent({
          eventId: 'request-refused',
          severityLevel: 'low',
          request: req,
          meta: { method: req.method, path: req.path.slice(0, 300) },
        });
        await event.fail({
          error: error instanceof Error ? error : new Error(String(error)),
          meta: { code: detail.code },
        });
      } catch (auditError) {
        logger.warn(`Auditing a refused request failed: ${auditError}`);
      }
    }
    const backstageError = toBackstageError(detail);
    const body: GitlabEnvErrorResponse = {
      error: { name: backstageError.name, message: detail.message },
      gitlabEnv: detail,
    };
    res.status(httpStatusOf(detail.code)).json(body);
  };
}
