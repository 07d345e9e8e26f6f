import {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { gitlabEnvResourcesReadPermission } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import { failure } from '../errors';
import { gitlabEnvErrorHandler } from './errorHandler';
import { GitlabEnvironmentsService } from '../service';

export interface RouterOptions {
  service: GitlabEnvironmentsService;
  catalog: CatalogService;
  permissions: PermissionsService;
  httpAuth: HttpAuthService;
  auditor: AuditorService;
  logger: LoggerService;
}

function flag(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return value === 'true' || value === '1' || value === '';
}

/**
 * `GET /health`, `GET /entity/:namespace/:kind/:name/environments` and
 * `GET /entity/:namespace/:kind/:name/environments/:slug/resources`.
 * Only these reads: no path from the browser ever reaches GitLab or KAS.
 */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { service, catalog, permissions, httpAuth, auditor, logger } = options;
  const router = Router();

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  /** The entity the caller may read, looked up with the caller's credentials. */
  async function authorizedEntity(req: express.Request) {
    const credentials = await httpAuth.credentials(req);
    const { namespace, kind, name } = req.params;
    const entityRef = stringifyEntityRef({ kind, namespace, name });
    const [decision] = await permissions.authorize(
      [
        {
          permission: gitlabEnvResourcesReadPermission,
          resourceRef: entityRef,
        },
      ],
      { credentials },
    );
    if (decision.result !== AuthorizeResult.ALLOW) {
      throw failure(
        'NOT_ALLOWED',
        `You are not allowed to see the environments of ${entityRef}.`,
      );
    }
    const entity = await catalog.getEntityByRef(entityRef, { credentials });
    if (!entity) {
      throw failure(
        'PROJECT_NOT_FOUND',
        `The catalog has no entity ${entityRef}.`,
      );
    }
    return { entity, entityRef };
  }

  router.get(
    '/entity/:namespace/:kind/:name/environments',
    async (req, res) => {
      const { entity } = await authorizedEntity(req);
      const states =
        typeof req.query.states === 'string' ? req.query.states.split(',') : [];
      res.json(
        await service.listEnvironments(entity, {
          includeStopped:
            flag(req.query.includeStopped, false) || states.includes('stopped'),
          withHealth: flag(req.query.withHealth, true),
        }),
      );
    },
  );

  router.get(
    '/entity/:namespace/:kind/:name/environments/:slug/resources',
    async (req, res) => {
      const event = await auditor.createEvent({
        eventId: 'environment-resources-read',
        request: req,
        meta: {
          entityRef: `${req.params.kind}:${req.params.namespace}/${req.params.name}`,
          environment: req.params.slug,
        },
      });
      try {
        const { entity } = await authorizedEntity(req);
        const body = await service.getEnvironmentResources(
          entity,
          req.params.slug,
        );
        await event.success({ meta: { resources: body.resources.length } });
        res.json(body);
      } catch (error) {
        await event.fail({ error: error as Error });
        throw error;
      }
    },
  );

  router.use(gitlabEnvErrorHandler(logger));

  return router;
}
