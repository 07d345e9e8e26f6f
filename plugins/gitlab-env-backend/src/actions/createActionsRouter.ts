import { LoggerService } from '@backstage/backend-plugin-api';
import {
  ENVIRONMENT_ACTIONS,
  permissionForCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import { failure, GitlabEnvFailure } from '../errors';
import { GitlabEnvironmentsService } from '../facade';
import {
  auditedEntity,
  entityPathParams,
  RawParameters,
} from '../http/pipeline';
import { route, RouteDeps } from '../http/route';
import { GitlabEnvTransport } from '../transport';
import { AccessReviewer } from './accessReview';
import { decideAllowed, noneAllowed } from './allowedActions';
import { ActionsConfig } from './actionsConfig';
import {
  ActionWritten,
  environmentActionRoute,
  record,
} from './environmentActionRoute';
import { FollowedLogs } from './followedLogs';
import { sendLogStream } from './podLogs';
import { podLogsSpec, withPodLog } from './podLogsRoute';
import { readTarget } from './targets';

export interface ActionsRouterOptions extends RouteDeps {
  service: GitlabEnvironmentsService;
  /** The plugin's transport: followed logs hold slots of the agents' budgets. */
  transport: GitlabEnvTransport;
  logger: LoggerService;
  config: ActionsConfig;
  onWritten?: (written: ActionWritten) => void;
  now?: () => Date;
}

const MAX_TARGETS = 200;
const ENVIRONMENT = '/entity/:namespace/:kind/:name/environments/:slug';

function allowedParams(raw: RawParameters, body: unknown) {
  const target = entityPathParams(raw);
  const targets = record(body).targets;
  if (!Array.isArray(targets) || targets.length > MAX_TARGETS)
    throw failure(
      'INVALID_REQUEST',
      `The request must list at most ${MAX_TARGETS} targets.`,
    );
  return { ...target, slug: target.slug!, targets: targets.map(readTarget) };
}

/** Every capability's permission, decided for the allowed route in the same batch as the read. */
const CAPABILITY_PERMISSIONS = [
  ...new Map(
    [...ENVIRONMENT_ACTIONS, 'pod.logs' as const]
      .map(permissionForCapability)
      .map(p => [p.name, p] as const),
  ).values(),
];

/**
 * `POST /entity/:namespace/:kind/:name/environments/:slug/actions`
 * `POST /entity/:namespace/:kind/:name/environments/:slug/actions/allowed`
 * `GET  /entity/:namespace/:kind/:name/environments/:slug/logs`
 *
 * Each goes through the request pipeline (the read permission and the
 * action's own on the entity, located, audited) and acts only on an object
 * the environment shows and owns (ownership.ts): anything else is refused
 * before a request reaches KAS. Writes are never retried.
 */
export function createActionsRouter(
  options: ActionsRouterOptions,
): express.Router {
  const { service, logger, config, transport } = options;
  const now = options.now ?? (() => new Date());
  const reviewer = new AccessReviewer(config.accessReviewTtlMs);
  const followed = new FollowedLogs(config.logs.maxFollowedPerUser);
  const router = Router();

  const action = environmentActionRoute({ ...options, now });
  router.post(
    `${ENVIRONMENT}/actions`,
    route(options, action.spec, async (context, _req, res) => {
      const body = await action.run(context);
      res.json(body.response);
      return action.outcome(body);
    }),
  );

  router.post(
    `${ENVIRONMENT}/actions/allowed`,
    route(
      options,
      {
        audit: {
          eventId: 'environment-actions-allowed',
          meta: auditedEntity,
          body: body => {
            const targets = record(body).targets;
            return { targets: Array.isArray(targets) ? targets.length : 0 };
          },
        },
        params: allowedParams,
        body: true,
        entities: 'one',
        entity: params => params,
        permission: { decided: CAPABILITY_PERMISSIONS },
        locate: 'environment',
      },
      async (
        { entity, entityRef, located, params, granted, requestSignal },
        _req,
        res,
      ) => {
        const { targets, slug } = params;
        const body = await service
          .withEnvironmentAgent(
            entity,
            slug,
            agent =>
              decideAllowed(targets, agent, { granted, entityRef, reviewer }),
            { signal: requestSignal, located },
          )
          .catch(error => {
            // A cluster read through a backend module takes no actions: say so
            // per target rather than fail the page's question.
            if (
              error instanceof GitlabEnvFailure &&
              error.detail.code === 'ACTION_NOT_APPLICABLE'
            )
              return noneAllowed(targets, error.message);
            throw error;
          });
        res.json(body);
        return {
          allowed: body.targets.filter(t =>
            Object.values(t.decisions).some(d => d?.allowed),
          ).length,
        };
      },
    ),
  );

  router.get(
    `${ENVIRONMENT}/logs`,
    route(options, podLogsSpec, async (context, _req, res) => {
      const stop = new AbortController();
      res.on('close', () => stop.abort());
      const followTimer = setTimeout(
        () => stop.abort(),
        config.logs.maxFollowMs,
      );
      try {
        await withPodLog(
          { service, transport, followed },
          context,
          { signal: stop.signal, limits: config.logs },
          ({ stream, planned, what }) =>
            sendLogStream(res, stream, planned, logger, what),
        );
      } finally {
        clearTimeout(followTimer);
      }
    }),
  );

  return router;
}
