import { Entity } from '@backstage/catalog-model';
import { EnvironmentUsageResponse } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import { GitlabEnvironmentsService } from '../facade';
import type { LocatedEntity } from '../locating';
import {
  environmentRead,
  environmentResourcesRoute,
  environmentsListRoute,
} from './environmentReads';
import { entityPathParams } from './pipeline';
import { route, RouteDeps } from './route';
import { sendReadOnce } from './sendReadOnce';

export interface RouterOptions extends RouteDeps {
  service: GitlabEnvironmentsService;
  /**
   * CPU and memory per pod and workload, and one's trend (see
   * EnvironmentUsage); without it, `…/usage` is not served.
   */
  environmentUsage?: (
    entity: Entity,
    slug: string,
    target: { pod?: string; workload?: string },
    options: { signal: AbortSignal; located: LocatedEntity },
  ) => Promise<EnvironmentUsageResponse>;
}

/**
 * `GET /health`, `GET /entity/:namespace/:kind/:name/environments`,
 * `GET /entity/:namespace/:kind/:name/environments/:slug/resources` and
 * `…/environments/:slug/desired` (the repository comparison, served only
 * there) and (with environmentUsage) `…/environments/:slug/usage`, each
 * through the request pipeline. Only these reads: no path from the browser ever
 * reaches GitLab or KAS.
 */
export function createRouter(options: RouterOptions): express.Router {
  const { service } = options;
  const router = Router();
  // A liveness probe, unauthenticated (plugin.ts): it reads nothing, so it is not audited.
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  const environmentsList = environmentsListRoute(service);
  router.get(
    '/entity/:namespace/:kind/:name/environments',
    route(options, environmentsList.spec, async (context, _req, res) => {
      const body = await environmentsList.run(context);
      res.json(body);
      return environmentsList.outcome(body);
    }),
  );

  const resources = environmentResourcesRoute(service);
  router.get(
    '/entity/:namespace/:kind/:name/environments/:slug/resources',
    route(options, resources.spec, async (context, req, res) => {
      const body = await resources.run(context);
      await sendReadOnce(req, res, body);
      return resources.outcome(body);
    }),
  );

  router.get(
    '/entity/:namespace/:kind/:name/environments/:slug/desired',
    // Repository files are read with the backend's token: audited as reads are.
    route(
      options,
      environmentRead('environment-desired-read'),
      async ({ entity, located, environment, requestSignal }, _req, res) => {
        const body = await service.getDesiredState(entity, environment.slug, {
          signal: requestSignal,
          located,
        });
        res.json(body);
        return {
          source: body.desired?.source?.project,
          unavailable: body.desired?.unavailable?.slice(0, 300),
        };
      },
    ),
  );

  const { environmentUsage } = options;
  if (environmentUsage)
    router.get(
      '/entity/:namespace/:kind/:name/environments/:slug/usage',
      route(
        options,
        {
          ...environmentRead('environment-usage-read'),
          params: raw => {
            const text = (key: string) =>
              typeof raw.query[key] === 'string'
                ? (raw.query[key] as string)
                : undefined;
            return {
              ...entityPathParams(raw),
              pod: text('pod'),
              workload: text('workload'),
            };
          },
        },
        async (
          { entity, located, environment, params, requestSignal },
          _req,
          res,
        ) => {
          const body = await environmentUsage(
            entity,
            environment.slug,
            { pod: params.pod, workload: params.workload },
            { signal: requestSignal, located },
          );
          res.json(body);
          return {
            metrics: body.metrics.available,
            pods: body.pods.length,
            trend: body.trend?.source,
          };
        },
      ),
    );

  return router;
}
