import { LoggerService } from '@backstage/backend-plugin-api';
import {
  Entity,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import {
  gitlabEnvDeploymentRollbackPermission,
  GitlabRollbackResponse,
  TIMELINE_ENTRY_KINDS,
  TimelineEntryKind,
  TimelineResponse,
  VersionsResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import pLimit from 'p-limit';
import { TimelineSettings } from '../config';
import { failure } from '../errors';
import { GitlabEnvironmentsService } from '../facade';
import {
  auditedEntity,
  auditText,
  entityPathParams,
  RawParameters,
  RouteCore,
  RouteSpec,
  principalName,
} from '../http/pipeline';
import { route, RouteDeps } from '../http/route';
import { isEnvironmentSlug, quote } from '../validation';
import { DeploymentHistory } from './deploymentHistory';
import { MergeRequestPreviews } from './mergeRequestPreview';
import { TIMELINE_RECORDING } from './timeline/recentChanges';
import { TimelineStore } from './timeline/TimelineStore';
import { EnvironmentVersions } from './versions';
import { workloadHistories } from './workloadHistory';

export interface HistoryRouterOptions extends RouteDeps {
  service: GitlabEnvironmentsService;
  history: DeploymentHistory;
  versions: EnvironmentVersions;
  previews: MergeRequestPreviews;
  /** Absent when gitlabEnv.timeline.enabled is false. */
  timeline?: TimelineStore;
  timelineSettings: TimelineSettings;
  logger: LoggerService;
  /** A GitLab rollback started: the timeline records it. */
  onRolledBack?: (done: {
    entity: Entity;
    slug: string;
    actor?: string;
    message: string;
    newJobId: string;
    jobUrl?: string;
  }) => void;
}

const ENTITY = '/entity/:namespace/:kind/:name';
const ENVIRONMENT = `${ENTITY}/environments/:slug`;
const MAX_TIMELINE_PAGE = 200;
const MAX_SYSTEM_ENTITIES = 50;
const DEPLOYMENT_ID = /^\d{1,19}$/;

function text(raw: RawParameters, name: string): string | undefined {
  const value = raw.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > 500)
    throw failure(
      'INVALID_REQUEST',
      `The query parameter ${name} is not valid.`,
    );
  return value;
}

function time(raw: RawParameters, name: string): number | undefined {
  const value = text(raw, name);
  if (value === undefined) return undefined;
  const at = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isSafeInteger(at))
    throw failure(
      'INVALID_REQUEST',
      `The query parameter ${name} ${quote(
        value,
      )} is not a time (ISO 8601 or milliseconds).`,
    );
  return at;
}

function kinds(raw: RawParameters): TimelineEntryKind[] | undefined {
  const value = text(raw, 'kinds');
  if (!value) return undefined;
  const asked = value.split(',');
  const unknown = asked.filter(
    k => !TIMELINE_ENTRY_KINDS.includes(k as TimelineEntryKind),
  );
  if (unknown.length > 0)
    throw failure(
      'INVALID_REQUEST',
      `Unknown timeline kinds ${unknown
        .map(quote)
        .join(', ')}; known: ${TIMELINE_ENTRY_KINDS.join(', ')}.`,
    );
  return asked as TimelineEntryKind[];
}

function limit(raw: RawParameters, fallback: number, max: number): number {
  const value = text(raw, 'limit');
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw failure(
      'INVALID_REQUEST',
      `limit must be a whole number from 1 to ${max}.`,
    );
  return n;
}

function slug(raw: RawParameters, name: string): string | undefined {
  const value = text(raw, name);
  if (value !== undefined && !isEnvironmentSlug(value))
    throw failure(
      'INVALID_REQUEST',
      `The query parameter ${name} ${quote(
        value,
      )} is not a GitLab environment slug.`,
    );
  return value;
}

function deploymentParams(raw: RawParameters) {
  const target = entityPathParams(raw);
  const id = raw.path.deploymentId;
  if (!id || !DEPLOYMENT_ID.test(id))
    throw failure(
      'INVALID_REQUEST',
      `The deployment id ${quote(id)} is not a GitLab deployment id.`,
    );
  return { ...target, slug: target.slug!, deploymentId: id };
}

/** A read of the entity (or one of its environments): gitlab-env.resources.read. */
function read<P extends { entityRef: string; slug?: string }>(
  eventId: string,
  params: (raw: RawParameters) => P,
  locate: RouteSpec<P>['locate'],
): RouteSpec<P> {
  return {
    audit: { eventId, meta: auditedEntity },
    params,
    entities: 'one',
    entity: p => p,
    permission: {},
    locate,
  };
}

function timelineParams(raw: RawParameters) {
  return {
    ...entityPathParams(raw),
    environmentSlug: slug(raw, 'environment'),
    kinds: kinds(raw),
    from: time(raw, 'from'),
    to: time(raw, 'to'),
    cursor: text(raw, 'cursor'),
    limit: limit(raw, 50, MAX_TIMELINE_PAGE),
  };
}

export type TimelineParams = ReturnType<typeof timelineParams>;

/**
 * `GET /entity/:namespace/:kind/:name/timeline` (and the actions
 * registry's recent-changes): the entity's read permission, not located,
 * a page of its timeline, newest first, from the database alone (the
 * catalog, the permissions and the database: no GitLab or cluster
 * request), audited as `entity-timeline-read`.
 */
export function timelineRoute(
  options: Pick<HistoryRouterOptions, 'timeline' | 'timelineSettings'>,
): RouteCore<TimelineParams, TimelineResponse> {
  const { timeline } = options;
  return {
    spec: read('entity-timeline-read', timelineParams, 'none'),
    run: async ({ entityRef, params }) => {
      const { entityRef: _ref, slug: _slug, ...page } = params;
      const found = timeline
        ? await timeline.page({ entityRef, ...page })
        : { entries: [] };
      return {
        ...found,
        retentionDays: options.timelineSettings.retentionDays,
        recording: timeline
          ? TIMELINE_RECORDING
          : 'The timeline is off (gitlabEnv.timeline.enabled: false): nothing is recorded.',
      };
    },
    outcome: body => ({ entries: body.entries.length }),
  };
}

export type DeploymentParams = ReturnType<typeof deploymentParams>;

/**
 * `POST …/environments/:slug/deployments/:deploymentId/rollback` (and the
 * actions registry's rollback-deployment): gitlab-env.deployments.rollback
 * on the entity, located, then GitLab re-runs the deploy job of that
 * earlier successful deployment with the rollback token; recorded on the
 * timeline (onRolledBack), audited as `environment-gitlab-rollback`.
 * Never retried, and no caller's signal: a retry the caller stopped
 * waiting for still happens.
 */
export function gitlabRollbackRoute(
  options: Pick<HistoryRouterOptions, 'history' | 'onRolledBack' | 'logger'>,
): RouteCore<DeploymentParams, GitlabRollbackResponse & { jobId: string }> {
  return {
    spec: {
      audit: {
        eventId: 'environment-gitlab-rollback',
        severity: 'medium',
        meta: raw => ({
          ...auditedEntity(raw),
          deploymentId: auditText(raw.path.deploymentId, 20) ?? null,
        }),
      },
      params: deploymentParams,
      entities: 'one',
      entity: p => p,
      permission: { required: () => [gitlabEnvDeploymentRollbackPermission] },
      locate: 'environment',
    },
    run: async ({ entity, located, environment, params, credentials }) => {
      const done = await options.history.rollback(
        entity,
        environment.slug,
        params.deploymentId,
        { located },
      );
      try {
        options.onRolledBack?.({
          entity,
          slug: environment.slug,
          actor: principalName(credentials),
          message: done.message,
          newJobId: done.job.id,
          jobUrl: done.job.webUrl,
        });
      } catch (error) {
        options.logger.warn(`Recording a GitLab rollback failed: ${error}`);
      }
      return done;
    },
    outcome: done => ({ jobId: done.jobId, newJobId: done.job.id }),
  };
}

/**
 * The history routes, each through the request pipeline: deployments and
 * what each brought, GitLab's rollback (also `gitlab-env.deployments.rollback`),
 * workload revisions, the timeline (from the database alone: the route
 * does not locate), versions across environments, the promotion diff and
 * merge request previews. The Kubernetes rollback is the actions route's
 * `workload.rollback`.
 */
export function createHistoryRouter(
  options: HistoryRouterOptions,
): express.Router {
  const { service, history, versions, previews } = options;
  const router = Router();

  router.get(
    `${ENVIRONMENT}/deployments`,
    route(
      options,
      read(
        'environment-deployments-read',
        raw => ({
          ...entityPathParams(raw),
          cursor: text(raw, 'cursor'),
          limit: limit(raw, 20, 100),
        }),
        'environment',
      ),
      async (
        { entity, located, environment, params, requestSignal },
        _req,
        res,
      ) => {
        const body = await history.page(entity, environment.slug, {
          cursor: params.cursor,
          limit: params.limit,
          signal: requestSignal,
          located,
        });
        res.json(body);
        return { deployments: body.deployments.length, source: body.source };
      },
    ),
  );

  router.get(
    `${ENVIRONMENT}/deployments/:deploymentId/changes`,
    route(
      options,
      read(
        'environment-deployment-changes-read',
        deploymentParams,
        'environment',
      ),
      async (
        { entity, located, environment, params, requestSignal },
        _req,
        res,
      ) => {
        const body = await history.changes(
          entity,
          environment.slug,
          params.deploymentId,
          { signal: requestSignal, located },
        );
        res.json(body);
        return { commits: body.commits.length, images: body.images.length };
      },
    ),
  );

  const gitlabRollback = gitlabRollbackRoute(options);
  router.post(
    `${ENVIRONMENT}/deployments/:deploymentId/rollback`,
    route(options, gitlabRollback.spec, async (context, _req, res) => {
      const done = await gitlabRollback.run(context);
      const { jobId: _jobId, ...body } = done;
      res.json(body);
      return gitlabRollback.outcome(done);
    }),
  );

  router.get(
    `${ENVIRONMENT}/revisions`,
    route(
      options,
      read('environment-revisions-read', entityPathParams, 'environment'),
      async ({ entity, located, environment, requestSignal }, _req, res) => {
        const body = await workloadHistories(
          service,
          entity,
          environment.slug,
          {
            signal: requestSignal,
            located,
          },
        );
        res.json(body);
        return { workloads: body.workloads.length };
      },
    ),
  );

  const timelineCore = timelineRoute(options);
  router.get(
    `${ENTITY}/timeline`,
    route(options, timelineCore.spec, async (context, _req, res) => {
      const body = await timelineCore.run(context);
      res.json(body);
      return timelineCore.outcome(body);
    }),
  );

  router.get(
    `${ENTITY}/versions`,
    route(
      options,
      read('entity-versions-read', entityPathParams, 'entity'),
      async ({ entity, located, requestSignal }, _req, res) => {
        const body: VersionsResponse = {
          entities: [
            await versions.ofEntity(entity, { signal: requestSignal, located }),
          ],
        };
        res.json(body);
        return { environments: body.entities[0].environments.length };
      },
    ),
  );

  router.get(
    '/versions',
    route(
      options,
      {
        audit: {
          eventId: 'system-versions-read',
          meta: raw => ({ system: auditText(raw.query.system) ?? null }),
        },
        params: raw => {
          const value = text(raw, 'system');
          try {
            return {
              system: stringifyEntityRef(
                parseEntityRef(value ?? '', {
                  defaultKind: 'system',
                  defaultNamespace: 'default',
                }),
              ),
            };
          } catch {
            throw failure(
              'INVALID_REQUEST',
              `The system ${quote(value)} is not an entity reference.`,
            );
          }
        },
        // Every annotated entity the caller may read; those of the system are kept.
        entities: 'catalog',
        permission: {},
        locate: 'none',
      },
      async ({ entities, params, requestSignal, locate }, _req, res) => {
        const members = entities
          .flatMap(e => ('entity' in e ? [e.entity] : []))
          .filter(entity => {
            const system = entity.spec?.system;
            if (typeof system !== 'string') return false;
            try {
              return (
                stringifyEntityRef(
                  parseEntityRef(system, {
                    defaultKind: 'system',
                    defaultNamespace: entity.metadata.namespace ?? 'default',
                  }),
                ) === params.system
              );
            } catch {
              return false;
            }
          })
          .slice(0, MAX_SYSTEM_ENTITIES);
        const limited = pLimit(4);
        const body: VersionsResponse = {
          entities: await Promise.all(
            members.map(entity =>
              limited(async () =>
                versions.ofEntity(entity, {
                  signal: requestSignal,
                  located: await locate(entity).catch(() => undefined),
                }),
              ),
            ),
          ),
        };
        res.json(body);
        return { entities: body.entities.length };
      },
    ),
  );

  router.get(
    `${ENTITY}/promotion`,
    route(
      options,
      read(
        'entity-promotion-read',
        raw => {
          const from = slug(raw, 'from');
          const to = slug(raw, 'to');
          if (!from || !to)
            throw failure(
              'INVALID_REQUEST',
              'Name the environments to compare with from= and to=.',
            );
          return { ...entityPathParams(raw), from, to };
        },
        'entity',
      ),
      async ({ entity, located, params, requestSignal }, _req, res) => {
        const body = await versions.promotion(entity, params.from, params.to, {
          signal: requestSignal,
          located,
        });
        res.json(body);
        return {
          from: params.from,
          to: params.to,
          differences: body.differences.length,
        };
      },
    ),
  );

  router.get(
    `${ENTITY}/merge-requests/preview`,
    route(
      options,
      read('entity-merge-request-preview-read', entityPathParams, 'entity'),
      async ({ entity, located, requestSignal }, _req, res) => {
        const body = await previews.preview(entity, {
          signal: requestSignal,
          located,
        });
        res.json(body);
        return { mergeRequests: body.mergeRequests.length };
      },
    ),
  );

  return router;
}
