import { LoggerService } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { JsonObject } from '@backstage/types';
import {
  ActionTarget,
  ENVIRONMENT_ACTIONS,
  EnvironmentAction,
  EnvironmentActionResponse,
  permissionForCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { failure } from '../errors';
import { GitlabEnvironmentsService } from '../facade';
import type { EnvironmentAgent } from '../facade/GitlabEnvironmentsService';
import {
  auditedEntity,
  auditText,
  entityPathParams,
  principalName,
  RawParameters,
  RouteContext,
  RouteCore,
} from '../http/pipeline';
import { quote } from '../validation';
import { performAction } from './performAction';
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
  /** What the action did, as its answer says it. */
  message: string;
  /** Who took it, as principalName names the caller. */
  actor?: string;
}

export interface EnvironmentActionDeps {
  service: GitlabEnvironmentsService;
  logger: LoggerService;
  onWritten?: (written: ActionWritten) => void;
  now?: () => Date;
}

export const record = (value: unknown) =>
  (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;

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
    // Checked by the action that takes it (workload.rollback).
    ...(fields.toRevision !== undefined && {
      toRevision: fields.toRevision as number,
    }),
  };
}

export type EnvironmentActionParams = ReturnType<typeof actionParams>;

export interface EnvironmentActionOutcome {
  response: EnvironmentActionResponse;
  upstreamStatus: number;
}

/**
 * `POST /entity/:namespace/:kind/:name/environments/:slug/actions` (and
 * the actions registry's write actions): the read permission and the
 * action's own on the entity, located, then the action on an object the
 * environment shows and owns, audited as `environment-action`. Never
 * retried.
 */
export function environmentActionRoute(
  deps: EnvironmentActionDeps,
): RouteCore<EnvironmentActionParams, EnvironmentActionOutcome> {
  return {
    spec: {
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
            ...(typeof fields.toRevision === 'number' && {
              toRevision: fields.toRevision,
            }),
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
    // No caller's signal: a write the caller stopped waiting for still
    // happens, and its audit record must say how it ended.
    run: context =>
      actOnEnvironment(deps, context, () => context.params.target),
    outcome: ({ response, upstreamStatus }) => ({
      outcome: response.outcome,
      upstreamStatus,
    }),
  };
}

/**
 * An environment action's own work, once the pipeline passed: the object
 * `targetOf` names among the environment's objects (which must be one the
 * environment shows and owns), written through the environment's agent,
 * the read forgotten and `onWritten` told. Never retried.
 */
export async function actOnEnvironment(
  deps: EnvironmentActionDeps,
  context: Pick<RouteContext<unknown>, 'entity' | 'located'> &
    Partial<Pick<RouteContext<unknown>, 'credentials'>> & {
      params: Pick<
        EnvironmentActionParams,
        'action' | 'slug' | 'replicas' | 'withSource'
      > &
        Pick<EnvironmentActionParams, 'toRevision'>;
    },
  targetOf: (agent: EnvironmentAgent) => ActionTarget,
): Promise<EnvironmentActionOutcome> {
  const { service, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const { entity, located, params } = context;
  const { action, slug } = params;
  const result = await service.withEnvironmentAgent(
    entity,
    slug,
    async agent => {
      const target = targetOf(agent);
      const done = await performAction(
        {
          action,
          target,
          replicas: params.replicas,
          withSource: params.withSource,
          toRevision: params.toRevision,
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
    deps.onWritten?.({
      entity,
      slug,
      action,
      agent: result.agent,
      written: result.written,
      environmentNamespace: result.environmentNamespace,
      message: result.response.message,
      ...(context.credentials && {
        actor: principalName(context.credentials),
      }),
    });
  } catch (error) {
    // The write happened: a failing refresh must not turn it into an error.
    logger.warn(`Refreshing after ${action} failed: ${error}`);
  }
  return {
    response: result.response,
    upstreamStatus: result.upstreamStatus,
  };
}
