import {
  gitlabEnvNamespaceDeletePermission,
  gitlabEnvStaleNamespacesReadPermission,
  StaleNamespacesResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import pLimit from 'p-limit';
import { asGitlabEnvError } from '../errors';
import {
  auditedEntity,
  auditText,
  entityPathParams,
  RawParameters,
} from '../http/pipeline';
import { route, RouteDeps } from '../http/route';
import { CiAccessService } from './CiAccessService';
import { readBranch } from './decisions';

export interface CiAccessRouterOptions extends RouteDeps {
  service: CiAccessService;
  /** Entities read at once for the portal-wide list. */
  entityConcurrency?: number;
}

/** Bounds the portal-wide walk over the catalog. */
const MAX_ENTITIES = 2000;

function deleteParams(raw: RawParameters) {
  const target = entityPathParams(raw);
  // Checked again (and against the stale list) by the service.
  return {
    ...target,
    agentId: String(raw.path.agentId ?? ''),
    namespace: String(raw.path.ns ?? ''),
  };
}

/**
 * `GET  /entity/:namespace/:kind/:name/ci-access[?branch=]`
 * `GET  /entity/:namespace/:kind/:name/ci-access/stale-namespaces`
 * `DELETE /entity/:namespace/:kind/:name/ci-access/agents/:agentId/namespaces/:ns`
 * `GET  /ci-access/stale-namespaces` (portal-wide, biggest first)
 *
 * Each through the request pipeline: parameters checked, the entity and
 * its permissions, located through the one locator, audited.
 */
export function createCiAccessRouter(
  options: CiAccessRouterOptions,
): express.Router {
  const { service } = options;
  const router = Router();

  router.get(
    '/entity/:namespace/:kind/:name/ci-access',
    route(
      options,
      {
        audit: {
          eventId: 'ci-access-read',
          meta: raw => ({
            ...auditedEntity(raw),
            branch: auditText(raw.query.branch, 255) ?? null,
          }),
        },
        params: raw => ({
          ...entityPathParams(raw),
          branch: readBranch(raw.query.branch),
        }),
        entities: 'one',
        entity: params => params,
        permission: {},
        locate: 'entity',
      },
      async ({ entity, located, params }, _req, res) => {
        const body = await service.matrix(entity, located, params.branch);
        res.json(body);
        return { cells: body.cells.length };
      },
    ),
  );

  router.get(
    '/entity/:namespace/:kind/:name/ci-access/stale-namespaces',
    route(
      options,
      {
        audit: { eventId: 'stale-namespaces-read', meta: auditedEntity },
        params: entityPathParams,
        entities: 'one',
        entity: params => params,
        permission: {},
        locate: 'entity',
      },
      async ({ entity, located }, _req, res) => {
        const body = await service.staleNamespaces(entity, located);
        res.json(body);
        return {
          namespaces: body.namespaces.length,
          errors: body.errors.map(e => e.error.code),
        };
      },
    ),
  );

  router.delete(
    '/entity/:namespace/:kind/:name/ci-access/agents/:agentId/namespaces/:ns',
    route(
      options,
      {
        audit: {
          eventId: 'stale-namespace-delete',
          severity: 'high',
          meta: raw => ({
            action: 'delete',
            ...auditedEntity(raw),
            object: {
              kind: 'Namespace',
              name: auditText(raw.path.ns, 63) ?? null,
              agentId: auditText(raw.path.agentId, 20) ?? null,
            },
          }),
        },
        params: deleteParams,
        entities: 'one',
        entity: params => params,
        permission: { required: () => [gitlabEnvNamespaceDeletePermission] },
        locate: 'entity',
      },
      async ({ entity, located, params }, _req, res) => {
        const result = await service.deleteNamespace(
          entity,
          located,
          params.agentId,
          params.namespace,
        );
        res.json(result);
        return { upstreamStatus: result.upstreamStatus, phase: result.phase };
      },
    ),
  );

  router.get(
    '/ci-access/stale-namespaces',
    route(
      options,
      {
        audit: { eventId: 'portal-stale-namespaces-read' },
        params: () => ({}),
        // The plugin-wide permission, then the catalog walk authorized in batches.
        entities: 'catalog',
        permission: { basic: gitlabEnvStaleNamespacesReadPermission },
        locate: 'none',
      },
      async (context, _req, res) => {
        const limit = pLimit(options.entityConcurrency ?? 4);
        const result: StaleNamespacesResponse = { namespaces: [], errors: [] };
        const seen = new Set<string>();
        await Promise.all(
          context.entities.slice(0, MAX_ENTITIES).map(listed =>
            limit(async () => {
              if (!('entity' in listed)) return;
              const { entity, entityRef } = listed;
              try {
                const stale = await service.staleNamespaces(
                  entity,
                  await context.locate(entity),
                );
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
                result.errors.push({
                  entityRef,
                  error: asGitlabEnvError(error),
                });
              }
            }),
          ),
        );
        result.namespaces.sort(
          (a, b) =>
            b.contents.total - a.contents.total || a.name.localeCompare(b.name),
        );
        res.json(result);
        return {
          namespaces: result.namespaces.length,
          errors: result.errors.length,
        };
      },
    ),
  );

  return router;
}
