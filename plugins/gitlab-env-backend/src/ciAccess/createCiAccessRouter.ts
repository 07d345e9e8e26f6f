import {
  AuditorService,
  BackstageCredentials,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  BasicPermission,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import {
  gitlabEnvNamespaceDeletePermission,
  gitlabEnvResourcesReadPermission,
  gitlabEnvStaleNamespacesReadPermission,
  StaleNamespacesResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import pLimit from 'p-limit';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import { annotatedEntities } from '../http/annotatedEntities';
import { gitlabEnvErrorHandler } from '../http/errorHandler';
import { CiAccessService } from './CiAccessService';

export interface CiAccessRouterOptions {
  service: CiAccessService;
  catalog: CatalogService;
  permissions: PermissionsService;
  httpAuth: HttpAuthService;
  auditor: AuditorService;
  logger: LoggerService;
  /** Entities read at once for the portal-wide list. */
  entityConcurrency?: number;
}

/** Bounds the portal-wide walk over the catalog. */
const MAX_ENTITIES = 2000;

/**
 * `GET  /entity/:namespace/:kind/:name/ci-access[?branch=]`
 * `GET  /entity/:namespace/:kind/:name/ci-access/stale-namespaces`
 * `DELETE /entity/:namespace/:kind/:name/ci-access/agents/:agentId/namespaces/:ns`
 * `GET  /ci-access/stale-namespaces` (portal-wide, biggest first)
 */
export function createCiAccessRouter(
  options: CiAccessRouterOptions,
): express.Router {
  const { service, catalog, permissions, httpAuth, auditor, logger } = options;
  const router = Router();

  async function allowed(
    credentials: BackstageCredentials,
    permission: ResourcePermission<'catalog-entity'> | BasicPermission,
    resourceRef?: string,
  ) {
    const [decision] = await permissions.authorize(
      [
        resourceRef
          ? {
              permission: permission as ResourcePermission<'catalog-entity'>,
              resourceRef,
            }
          : { permission: permission as BasicPermission },
      ],
      { credentials },
    );
    return decision.result === AuthorizeResult.ALLOW;
  }

  async function entityFor(
    req: express.Request,
    extra?: ResourcePermission<'catalog-entity'>,
  ) {
    const credentials = await httpAuth.credentials(req);
    const { namespace, kind, name } = req.params;
    const entityRef = stringifyEntityRef({ kind, namespace, name });
    if (
      !(await allowed(credentials, gitlabEnvResourcesReadPermission, entityRef))
    ) {
      throw failure(
        'NOT_ALLOWED',
        `You are not allowed to see the environments of ${entityRef}.`,
      );
    }
    if (extra && !(await allowed(credentials, extra, entityRef))) {
      throw failure(
        'NOT_ALLOWED',
        `You are not allowed to delete namespaces of ${entityRef} (permission ${extra.name}).`,
      );
    }
    const entity = await catalog.getEntityByRef(entityRef, { credentials });
    if (!entity)
      throw failure(
        'PROJECT_NOT_FOUND',
        `The catalog has no entity ${entityRef}.`,
      );
    return entity;
  }

  router.get('/entity/:namespace/:kind/:name/ci-access', async (req, res) => {
    const entity = await entityFor(req);
    const branch =
      typeof req.query.branch === 'string' && req.query.branch !== ''
        ? req.query.branch
        : undefined;
    res.json(await service.matrix(entity, branch));
  });

  router.get(
    '/entity/:namespace/:kind/:name/ci-access/stale-namespaces',
    async (req, res) => {
      const entity = await entityFor(req);
      res.json(await service.staleNamespaces(entity));
    },
  );

  router.delete(
    '/entity/:namespace/:kind/:name/ci-access/agents/:agentId/namespaces/:ns',
    async (req, res) => {
      const { kind, namespace, name, agentId, ns } = req.params;
      const event = await auditor.createEvent({
        eventId: 'stale-namespace-delete',
        severityLevel: 'high',
        request: req,
        meta: {
          action: 'delete',
          entityRef: stringifyEntityRef({ kind, namespace, name }),
          object: { kind: 'Namespace', name: ns, agentId },
        },
      });
      try {
        const entity = await entityFor(req, gitlabEnvNamespaceDeletePermission);
        const result = await service.deleteNamespace(entity, agentId, ns);
        await event.success({
          meta: { upstreamStatus: result.upstreamStatus, phase: result.phase },
        });
        res.json(result);
      } catch (error) {
        const detail =
          error instanceof GitlabEnvFailure ? error.detail : undefined;
        await event.fail({
          error: error as Error,
          meta: { code: detail?.code, upstreamStatus: detail?.upstreamStatus },
        });
        throw error;
      }
    },
  );

  router.get('/ci-access/stale-namespaces', async (req, res) => {
    const credentials = await httpAuth.credentials(req);
    if (!(await allowed(credentials, gitlabEnvStaleNamespacesReadPermission))) {
      throw failure(
        'NOT_ALLOWED',
        `You are not allowed to see the portal-wide clean-up list (${gitlabEnvStaleNamespacesReadPermission.name}).`,
      );
    }
    const entities = await entitiesToScan(catalog, credentials);
    const limit = pLimit(options.entityConcurrency ?? 4);
    const result: StaleNamespacesResponse = { namespaces: [], errors: [] };
    const seen = new Set<string>();
    await Promise.all(
      entities.map(entity =>
        limit(async () => {
          const entityRef = stringifyEntityRef(entity);
          if (
            !(await allowed(
              credentials,
              gitlabEnvResourcesReadPermission,
              entityRef,
            ))
          )
            return;
          try {
            const stale = await service.staleNamespaces(entity);
            for (const n of stale.namespaces) {
              // Two entities of one project see the same namespace; list it once.
              const key = `${n.agent.id}|${n.name}`;
              if (!seen.has(key)) {
                seen.add(key);
                result.namespaces.push(n);
              }
            }
            result.errors.push(...stale.errors);
          } catch (error) {
            result.errors.push({ entityRef, error: asGitlabEnvError(error) });
          }
        }),
      ),
    );
    result.namespaces.sort(
      (a, b) =>
        b.contents.total - a.contents.total || a.name.localeCompare(b.name),
    );
    res.json(result);
  });

  router.use(gitlabEnvErrorHandler(logger));
  return router;
}

async function entitiesToScan(
  catalog: CatalogService,
  credentials: BackstageCredentials,
): Promise<Entity[]> {
  const out: Entity[] = [];
  for await (const page of annotatedEntities(catalog, credentials)) {
    out.push(...page);
    if (out.length >= MAX_ENTITIES) break;
  }
  return out.slice(0, MAX_ENTITIES);
}
