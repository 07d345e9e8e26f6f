import { gitlabEnvDiagnosticsReadPermission } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import { GitlabEnvironmentsService } from '../facade';
import { route, RouteDeps } from '../http/route';

export interface DiagnosticsRouterOptions extends RouteDeps {
  service: Pick<GitlabEnvironmentsService, 'diagnose'>;
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
  const router = Router();
  router.get(
    '/diagnostics',
    route(
      options,
      {
        audit: { eventId: 'diagnostics-read' },
        params: () => ({}),
        entities: 'none',
        permission: { basic: gitlabEnvDiagnosticsReadPermission },
        locate: 'none',
      },
      async (_context, _req, res) => {
        const body = await options.service.diagnose();
        res.json(body);
        return { instances: body.instances.length };
      },
    ),
  );
  return router;
}
