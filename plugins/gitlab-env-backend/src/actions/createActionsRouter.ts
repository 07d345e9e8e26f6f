import { LoggerService } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { JsonObject } from '@backstage/types';
import {
  ActionTarget,
  ENVIRONMENT_ACTIONS,
  EnvironmentAction,
  permissionForCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import { failure, GitlabEnvFailure } from '../errors';
import { GitlabEnvironmentsService } from '../facade';
import {
  auditedEntity,
  auditText,
  entityPathParams,
  RawParameters,
} from '../http/pipeline';
import { route, RouteDeps } from '../http/route';
import { GitlabEnvTransport } from '../transport';
import { quote } from '../validation';
import { AccessReviewer } from './accessReview';
import { decideAllowed, noneAllowed } from './allowedActions';
import { ActionsConfig } from './actionsConfig';
import { FollowedLogs } from './followedLogs';
import { performAction } from './performAction';
import {
  logRequest,
  openLogStream,
  readLogsQuery,
  sendLogStream,
} from './podLogs';
import { ownedObject, readTarget } from './targets';

/** What the router tells after a write, so the live stream can list the changed objects again at once. */
export interface ActionWritten {
  entity: Entity;
  slug: string;
  action: EnvironmentAction;
  /** The agent that was written through: the instance's host and the agent's id. */
  agent: { host: string; id: string };
  /** The objects written (a reconcile with its source: two). */
  written: ActionTarget[];
  /** The environment's namespace: its live state holds objects of other namespaces too (the Flux object). */
  environmentNamespace?: string;
}

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

function readAction(value: unknown): EnvironmentAction {
  if (!ENVIRONMENT_ACTIONS.includes(value as EnvironmentAction))
    throw failure(
      'INVALID_REQUEST',
      `The request's action ${quote(
        value,
      )} is not one of ${ENVIRONMENT_ACTIONS.join(', ')}.`,
    );
  return value as EnvironmentAction;
}

/** What the audit record says about a request's target before it is checked. */
function auditedTarget(value: unknown): JsonObject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: JsonObject = {};
  for (const key of ['apiVersion', 'kind', 'namespace', 'name']) {
    const field = auditText((value as Record<string, unknown>)[key]);
    if (field !== undefined) out[key] = field;
  }
  return out;
}

const record = (value: unknown) =>
  (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;

/** The environment's path and an action body, checked. */
function actionParams(raw: RawParameters, body: unknown) {
  const target = entityPathParams(raw);
  const fields = record(body);
  return {
    ...target,
    slug: target.slug!,
    action: readAction(fields.action),
    target: readTarget(fields.target),
    replicas: fields.replicas as number | undefined,
    withSource: fields.withSource === true,
  };
}

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

  router.post(
    `${ENVIRONMENT}/actions`,
    route(
      options,
      {
        audit: {
          eventId: 'environment-action',
          severity: 'medium',
          meta: auditedEntity,
          body: body => {
            const fields = record(body);
            return {
              action: auditText(fields.action, 40) ?? null,
              object: auditedTarget(fields.target) ?? null,
              ...(typeof fields.replicas === 'number' && {
                replicas: fields.replicas,
              }),
              ...(fields.withSource === true && { withSource: true }),
            };
          },
        },
        params: actionParams,
        body: true,
        entities: 'one',
        entity: params => params,
        permission: {
          required: params => [permissionForCapability(params.action)],
        },
        locate: 'environment',
      },
      async ({ entity, located, params }, _req, res) => {
        const { action, target, slug } = params;
        // No client signal: a write the client stopped waiting for still
        // happens, and its audit record must say how it ended.
        const result = await service.withEnvironmentAgent(
          entity,
          slug,
          async agent => {
            const done = await performAction(
              {
                action,
                target,
                replicas: params.replicas,
                withSource: params.withSource,
              },
              {
                kas: agent.kas,
                agent: agent.environment.agent!,
                object: await ownedObject(target, agent),
                resources: agent.resources,
                // Every object written, the target and a reconcile's source alike.
                mayWrite: written => ownedObject(written, agent),
                now,
              },
            );
            // The next resources read shows the change, live stream or not.
            agent.forgetRead();
            return {
              ...done,
              environmentNamespace: agent.environment.namespace,
              agent: {
                host: agent.instanceHost,
                id: agent.environment.agent!.id,
              },
            };
          },
          { located },
        );
        try {
          options.onWritten?.({
            entity,
            slug,
            action,
            agent: result.agent,
            written: result.written,
            environmentNamespace: result.environmentNamespace,
          });
        } catch (error) {
          // The write happened: a failing refresh must not turn it into an error.
          logger.warn(`Refreshing after ${action} failed: ${error}`);
        }
        res.json(result.response);
        return {
          outcome: result.response.outcome,
          upstreamStatus: result.upstreamStatus,
        };
      },
    ),
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
        { entity, entityRef, located, params, granted, signal },
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
            { signal, located },
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
    route(
      options,
      {
        audit: {
          eventId: 'environment-logs-read',
          meta: raw => ({
            ...auditedEntity(raw),
            pod: auditText(raw.query.pod) ?? null,
          }),
        },
        params: raw => {
          const target = entityPathParams(raw);
          return {
            ...target,
            slug: target.slug!,
            query: readLogsQuery(raw.query),
          };
        },
        entities: 'one',
        entity: params => params,
        permission: { required: () => [permissionForCapability('pod.logs')] },
        locate: 'environment',
      },
      async (context, _req, res) => {
        const { entity, located, params, credentials } = context;
        const { query, slug } = params;
        const stop = new AbortController();
        res.on('close', () => stop.abort());
        const followTimer = setTimeout(
          () => stop.abort(),
          config.logs.maxFollowMs,
        );
        const releases: Array<() => void> = [];
        try {
          await service.withEnvironmentAgent(
            entity,
            slug,
            async agent => {
              const { environment, kas } = agent;
              const pod = await ownedObject(
                {
                  apiVersion: 'v1',
                  kind: 'Pod',
                  namespace: query.namespace ?? environment.namespace ?? '',
                  name: query.pod,
                },
                agent,
              );
              const planned = logRequest(pod, query, config.logs);
              const what = `pod ${pod.metadata!.namespace}/${query.pod}${
                planned.container ? ` (container ${planned.container})` : ''
              }`;
              // A followed log holds an agentk tunnel as long as it is
              // open: within the user's cap and the agent's budget.
              if (query.follow) releases.push(followed.hold(credentials));
              releases.push(
                await transport.holdStream(
                  agent.instanceHost,
                  environment.agent!,
                  {
                    followed: query.follow === true,
                  },
                ),
              );
              const stream = await openLogStream(
                kas,
                environment.agent!,
                planned.path,
                what,
              );
              await context.opened({
                container: planned.container ?? null,
                tailLines: planned.tailLines,
                follow: query.follow === true,
              });
              await sendLogStream(res, stream, planned, logger, what);
            },
            { signal: stop.signal, streaming: true, located },
          );
        } finally {
          clearTimeout(followTimer);
          releases.forEach(release => release());
        }
      },
    ),
  );

  return router;
}
