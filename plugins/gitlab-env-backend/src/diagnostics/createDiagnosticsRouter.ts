import {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { gitlabEnvDiagnosticsReadPermission } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import { failure } from '../errors';
import { gitlabEnvErrorHandler } from '../http/errorHandler';
import { GitlabEnvironmentsService } from '../facade';

export interface DiagnosticsRouterOptions {
  service: GitlabEnvironmentsService;
  permissions: PermissionsService;
  httpAuth: HttpAuthService;
  auditor: AuditorService;
  logger: LoggerService;
}

/**
 * `GET /diagnostics`: each configured instance checked afresh (version, KAS
 * URL and how it was found, token scopes and expiry) with the agents and
 * failures reads met, for those holding gitlab-env.diagnostics.read. It
 * calls GitLab, so each call is audited; it never returns a token.
 */
export function createDiagnosticsRouter(
  options: DiagnosticsRouterOptions,
): express.Router {
  const { service, permissions, httpAuth, auditor, logger } = options;
  const router = Router();
  router.get('/diagnostics', async (req, res) => {
    const event = await auditor.createEvent({
      eventId: 'diagnostics-read',
      request: req,
    });
    try {
      const credentials = await httpAuth.credentials(req);
      const [decision] = await permissions.authorize(
        [{ permission: gitlabEnvDiagnosticsReadPermission }],
        { credentials },
      );
      if (decision.result !== AuthorizeResult.ALLOW) {
        throw failure(
          'NOT_ALLOWED',
          'You are not allowed to see the GitLab diagnostics.',
          {
            hint: 'Ask a portal admin for the gitlab-env.diagnostics.read permission.',
          },
        );
      }
      const body = await service.diagnose();
      await event.success();
      res.json(body);
    } catch (error) {
      await event.fail({ error: error as Error });
      throw error;
    }
  });
  router.use(gitlabEnvErrorHandler(logger));
  return router;
}
