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
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import {
  ActionTarget,
  ENVIRONMENT_ACTIONS,
  EnvironmentAction,
  gitlabEnvResourcesReadPermission,
  permissionForCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import { failure, GitlabEnvFailure } from '../errors';
import { clientSignal, routeParams } from '../http/routeParams';
import { gitlabEnvErrorHandler } from '../http/errorHandler';
import { GitlabEnvironmentsService } from '../facade';
import { quote } from '../validation';
import { AccessReviewer } from './accessReview';
import { decideAllowed, noneAllowed } from './allowedActions';
import { ActionsConfig } from './actionsConfig';
import { performAction } from './performAction';
import {
  logRequest,
  openLogStream,
  readLogsQuery,
  sendLogStream,
} from './podLogs';
import { environmentObject, readTarget } from './targets';

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

export interface ActionsRouterOptions {
  service: GitlabEnvironmentsService;
  catalog: CatalogService;
  permissions: PermissionsService;
  httpAuth: HttpAuthService;
  auditor: AuditorService;
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
function auditedTarget(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, string> = {};
  for (const key of ['apiVersion', 'kind', 'namespace', 'name']) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string') out[key] = field.slice(0, 253);
  }
  return out;
}

function auditFailure(error: unknown) {
  const detail = error instanceof GitlabEnvFailure ? error.detail : undefined;
  return { code: detail?.code, upstreamStatus: detail?.upstreamStatus };
}

/**
 * `POST /entity/:namespace/:kind/:name/environments/:slug/actions`
 * `POST /entity/:namespace/:kind/:name/environments/:slug/actions/allowed`
 * `GET  /entity/:namespace/:kind/:name/environments/:slug/logs`
 *
 * Each acts only on an object of the entity's environment (as its read
 * holds it); anything else is refused before a request reaches KAS. Each
 * needs the read permission and the action's own resource permission on
 * the entity, and is audited. Writes are never retried.
 */
export function createActionsRouter(
  options: ActionsRouterOptions,
): express.Router {
  const { service, catalog, permissions, httpAuth, auditor, logger, config } =
    options;
  const now = options.now ?? (() => new Date());
  const reviewer = new AccessReviewer(config.accessReviewTtlMs);
  const router = Router();
  router.use(express.json({ limit: '64kb' }));

  async function permitted(
    credentials: BackstageCredentials,
    entityRef: string,
    wanted: ResourcePermission<'catalog-entity'>[],
  ): Promise<Set<string>> {
    const decisions = await permissions.authorize(
      wanted.map(permission => ({ permission, resourceRef: entityRef })),
      { credentials },
    );
    return new Set(
      wanted
        .filter((_, i) => decisions[i]?.result === AuthorizeResult.ALLOW)
        .map(p => p.name),
    );
  }

  /** The entity, when the caller may read it and hold `needed`. */
  async function authorizedEntity(
    req: express.Request,
    needed?: ResourcePermission<'catalog-entity'>,
  ) {
    const { namespace, kind, name, slug } = routeParams(req);
    const entityRef = stringifyEntityRef({ kind, namespace, name });
    const credentials = await httpAuth.credentials(req);
    const wanted = [
      gitlabEnvResourcesReadPermission,
      ...(needed ? [needed] : []),
    ];
    const granted = await permitted(credentials, entityRef, wanted);
    if (!granted.has(gitlabEnvResourcesReadPermission.name))
      throw failure(
        'NOT_ALLOWED',
        `You are not allowed to see the environments of ${entityRef}.`,
      );
    if (needed && !granted.has(needed.name))
      throw failure(
        'NOT_ALLOWED',
        `You are not allowed to do this with the environments of ${entityRef} (permission ${needed.name}).`,
        { hint: 'Ask the portal’s administrators for that permission.' },
      );
    const entity = await catalog.getEntityByRef(entityRef, { credentials });
    if (!entity)
      throw failure(
        'ENTITY_NOT_FOUND',
        `The catalog has no entity ${entityRef}, or you cannot see it.`,
      );
    return { entity, entityRef, slug: slug!, credentials };
  }

  router.post(`${ENVIRONMENT}/actions`, async (req, res) => {
    const { namespace, kind, name, slug } = req.params;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const event = await auditor.createEvent({
      eventId: 'environment-action',
      severityLevel: 'medium',
      request: req,
      meta: {
        action:
          typeof body.action === 'string'
            ? body.action.slice(0, 40)
            : undefined,
        entityRef: `${kind}:${namespace}/${name}`,
        environment: slug,
        object: auditedTarget(body.target),
        replicas: typeof body.replicas === 'number' ? body.replicas : undefined,
        withSource: body.withSource === true ? true : undefined,
      },
    });
    try {
      const action = readAction(body.action);
      const target = readTarget(body.target);
      const { entity } = await authorizedEntity(
        req,
        permissionForCapability(action),
      );
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
              replicas: body.replicas as number | undefined,
              withSource: body.withSource === true,
            },
            {
              kas: agent.kas,
              agent: agent.environment.agent!,
              object: await environmentObject(target, agent),
              resources: agent.resources,
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
      );
      await event.success({
        meta: {
          outcome: result.response.outcome,
          upstreamStatus: result.upstreamStatus,
        },
      });
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
    } catch (error) {
      await event.fail({ error: error as Error, meta: auditFailure(error) });
      throw error;
    }
  });

  router.post(`${ENVIRONMENT}/actions/allowed`, async (req, res) => {
    const raw = (req.body ?? {}).targets;
    if (!Array.isArray(raw) || raw.length > MAX_TARGETS)
      throw failure(
        'INVALID_REQUEST',
        `The request must list at most ${MAX_TARGETS} targets.`,
      );
    const targets = raw.map(readTarget);
    const { entity, entityRef, slug, credentials } = await authorizedEntity(
      req,
    );
    const capabilityPermissions = [
      ...new Set(
        [...ENVIRONMENT_ACTIONS, 'pod.logs' as const].map(
          permissionForCapability,
        ),
      ),
    ];
    const granted = await permitted(
      credentials,
      entityRef,
      capabilityPermissions,
    );
    const body = await service
      .withEnvironmentAgent(
        entity,
        slug,
        agent =>
          decideAllowed(targets, agent, { granted, entityRef, reviewer }),
        { signal: clientSignal(res) },
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
  });

  router.get(`${ENVIRONMENT}/logs`, async (req, res) => {
    const { namespace, kind, name, slug } = req.params;
    const event = await auditor.createEvent({
      eventId: 'environment-logs-read',
      severityLevel: 'low',
      request: req,
      meta: {
        entityRef: `${kind}:${namespace}/${name}`,
        environment: slug,
        pod:
          typeof req.query.pod === 'string'
            ? req.query.pod.slice(0, 253)
            : undefined,
      },
    });
    const stop = new AbortController();
    res.on('close', () => stop.abort());
    const followTimer = setTimeout(() => stop.abort(), config.logs.maxFollowMs);
    try {
      const query = readLogsQuery(req.query);
      const { entity } = await authorizedEntity(
        req,
        permissionForCapability('pod.logs'),
      );
      await service.withEnvironmentAgent(
        entity,
        slug,
        async agent => {
          const { environment, kas } = agent;
          const pod = await environmentObject(
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
          const stream = await openLogStream(
            kas,
            environment.agent!,
            planned.path,
            what,
          );
          await event.success({
            meta: {
              container: planned.container,
              tailLines: planned.tailLines,
              follow: query.follow === true,
            },
          });
          await sendLogStream(res, stream, planned, logger, what);
        },
        { signal: stop.signal, streaming: true },
      );
    } catch (error) {
      await event.fail({ error: error as Error, meta: auditFailure(error) });
      throw error;
    } finally {
      clearTimeout(followTimer);
    }
  });

  router.use(gitlabEnvErrorHandler(logger));
  return router;
}
