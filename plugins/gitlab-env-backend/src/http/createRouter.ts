import {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  DesiredStateComparison,
  EnvironmentDesiredStateResponse,
  gitlabEnvResourcesReadPermission,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { JsonObject } from '@backstage/types';
import express from 'express';
import Router from 'express-promise-router';
import { failure } from '../errors';
import { gitlabEnvErrorHandler } from './errorHandler';
import { clientSignal, routeParams } from './routeParams';
import { sendReadOnce } from './sendReadOnce';
import { GitlabEnvironmentsService } from '../facade';

export interface RouterOptions {
  service: GitlabEnvironmentsService;
  catalog: CatalogService;
  permissions: PermissionsService;
  httpAuth: HttpAuthService;
  auditor: AuditorService;
  logger: LoggerService;
  /**
   * Desired vs live against the objects the live tab follows (see
   * liveDesiredState); without it, `…/desired` is not served.
   */
  liveDesiredState?: (
    entity: Entity,
    slug: string,
    signal: AbortSignal,
  ) => Promise<DesiredStateComparison | undefined>;
}

function flag(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return value === 'true' || value === '1' || value === '';
}

/**
 * `GET /health`, `GET /entity/:namespace/:kind/:name/environments`,
 * `GET /entity/:namespace/:kind/:name/environments/:slug/resources` and
 * (with liveDesiredState) `…/environments/:slug/desired`.
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
    const { namespace, kind, name } = routeParams(req);
    const credentials = await httpAuth.credentials(req);
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
        'ENTITY_NOT_FOUND',
        `The catalog has no entity ${entityRef}, or you cannot see it.`,
        {
          hint: 'Check the address; the entity may have been removed from the catalog.',
        },
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
          withHealth: flag(req.query.withHealth, false),
          signal: clientSignal(res),
        }),
      );
    },
  );

  /**
   * Runs an environment read as one audit event: `serve` answers and
   * returns what the event records of it.
   */
  async function auditedRead(
    eventId: string,
    req: express.Request,
    serve: () => Promise<JsonObject>,
  ) {
    const event = await auditor.createEvent({
      eventId,
      request: req,
      meta: {
        entityRef: `${req.params.kind}:${req.params.namespace}/${req.params.name}`,
        environment: req.params.slug,
      },
    });
    try {
      await event.success({ meta: await serve() });
    } catch (error) {
      await event.fail({ error: error as Error });
      throw error;
    }
  }

  router.get(
    '/entity/:namespace/:kind/:name/environments/:slug/resources',
    (req, res) =>
      auditedRead('environment-resources-read', req, async () => {
        const { entity } = await authorizedEntity(req);
        const body = await service.getEnvironmentResources(
          entity,
          req.params.slug,
          { signal: clientSignal(res) },
        );
        await sendReadOnce(req, res, body);
        // The audit records what was served: partial reads name their gaps.
        return {
          resources: body.resources.length,
          partial: body.health.partial !== undefined,
          errors: body.errors.map(e => e.code),
        };
      }),
  );

  const { liveDesiredState } = options;
  if (liveDesiredState)
    router.get(
      '/entity/:namespace/:kind/:name/environments/:slug/desired',
      // Repository files are read with the backend's token: audited as reads are.
      (req, res) =>
        auditedRead('environment-desired-read', req, async () => {
          const { entity } = await authorizedEntity(req);
          const body: EnvironmentDesiredStateResponse = {
            desired: await liveDesiredState(
              entity,
              routeParams(req).slug!,
              clientSignal(res),
            ),
          };
          res.json(body);
          return { source: body.desired?.source?.project };
        }),
    );

  router.use(gitlabEnvErrorHandler(logger));

  return router;
}
