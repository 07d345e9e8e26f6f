import {
  addStaleNamespacesLine,
  gitlabEnvNamespaceDeletePermission,
  gitlabEnvStaleNamespacesReadPermission,
  NO_STALE_NAMESPACES_YET,
  StaleNamespacesStreamLine,
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
 * `GET  /ci-access/stale-namespaces` (portal-wide, biggest first; streamed
 *   per agent as `StaleNamespacesStreamLine`s with `Accept: application/x-ndjson`)
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
      async ({ entity, located, params, requestSignal }, _req, res) => {
        const body = await service.matrix(
          entity,
          located,
          params.branch,
          requestSignal,
        );
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
      async ({ entity, located, requestSignal }, _req, res) => {
        const body = await service.staleNamespaces(
          entity,
          located,
          requestSignal,
        );
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
      async (context, req, res) => {
        const started = Date.now();
        const streaming =
          req.accepts(['application/json', 'application/x-ndjson']) ===
          'application/x-ndjson';
        let closed = false;
        res.on('close', () => {
          closed = true;
        });
        // Streamed, the list outlasts the request's deadline and ends with
        // the browser; answered at once, it answers by that deadline with
        // what loaded, the rest as errors.
        const signal = streaming ? context.signal : context.requestSignal;
        let sofar = NO_STALE_NAMESPACES_YET;
        const emit = (line: StaleNamespacesStreamLine) => {
          sofar = addStaleNamespacesLine(sofar, line);
          if (streaming && !closed) res.write(`${JSON.stringify(line)}\n`);
        };
        if (streaming) {
          res.status(200);
          res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
          res.setHeader('cache-control', 'no-store');
        }
        const entities = context.entities.slice(0, MAX_ENTITIES);
        emit({ type: 'start', entities: entities.length });
        // Entities are located a few at a time; each agent's namespaces
        // are then written as they settle, outside the limit, so a slow
        // or absent agent holds only its own lines.
        const limit = pLimit(options.entityConcurrency ?? 4);
        await Promise.all(
          entities.map(async listed => {
            if (!('entity' in listed)) return;
            const { entity, entityRef } = listed;
            const agents = await limit(async () => {
              if (closed) return [];
              try {
                // GitLab's answer first; each agent's read then waits for
                // the namespaces its own cluster gives.
                return await service.staleByAgent(
                  entity,
                  await context.locate(entity, {
                    clusterLookups: 'known',
                    signal,
                  }),
                  slug => context.locate(entity, { environment: slug, signal }),
                  signal,
                );
              } catch (error) {
                emit({
                  type: 'entityError',
                  entityRef,
                  error: asGitlabEnvError(error),
                });
                return [];
              }
            });
            if (agents.length)
              emit({
                type: 'entity',
                entityRef,
                agents: agents.map(a => a.agent.name),
              });
            await Promise.all(
              agents.map(({ agent, stale }) =>
                stale.then(
                  namespaces =>
                    emit({
                      type: 'agent',
                      entityRef,
                      agent: agent.name,
                      namespaces,
                    }),
                  error =>
                    emit({
                      type: 'agent',
                      entityRef,
                      agent: agent.name,
                      namespaces: [],
                      error: asGitlabEnvError(error),
                    }),
                ),
              ),
            );
          }),
        );
        emit({ type: 'done', elapsedMs: Date.now() - started });
        if (streaming) res.end();
        else res.json({ namespaces: sofar.namespaces, errors: sofar.errors });
        return {
          namespaces: sofar.namespaces.length,
          errors: sofar.errors.length,
        };
      },
    ),
  );

  return router;
}
