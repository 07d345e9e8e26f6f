import {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  Entity,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import { JsonObject } from '@backstage/types';
import {
  gitlabEnvDeploymentRollbackPermission,
  gitlabEnvResourcesReadPermission,
  TIMELINE_ENTRY_KINDS,
  TimelineEntryKind,
  TimelineResponse,
  VersionsResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import pLimit from 'p-limit';
import { TimelineSettings } from '../config';
import { failure, GitlabEnvFailure } from '../errors';
import { actorOf } from '../http/actor';
import { gitlabEnvErrorHandler } from '../http/errorHandler';
import { clientSignal, routeParams } from '../http/routeParams';
import { isEnvironmentSlug, quote } from '../validation';
import { DeploymentHistory } from './deploymentHistory';
import { MergeRequestPreviews } from './mergeRequestPreview';
import { TIMELINE_RECORDING } from './timeline/recentChanges';
import { TimelineStore } from './timeline/TimelineStore';
import { EnvironmentVersions } from './versions';
import { workloadHistories } from './workloadHistory';
import { GitlabEnvironmentsService } from '../facade';

export interface HistoryRouterOptions {
  service: GitlabEnvironmentsService;
  history: DeploymentHistory;
  versions: EnvironmentVersions;
  previews: MergeRequestPreviews;
  /** Absent when gitlabEnv.timeline.enabled is false. */
  timeline?: TimelineStore;
  timelineSettings: TimelineSettings;
  catalog: CatalogService;
  permissions: PermissionsService;
  httpAuth: HttpAuthService;
  auditor: AuditorService;
  logger: LoggerService;
  /** A GitLab rollback started: the timeline records it. */
  onRolledBack?: (done: {
    entity: Entity;
    slug: string;
    deploymentId: string;
    jobId: string;
    newJobId: string;
    actor?: string;
    message: string;
    jobUrl?: string;
  }) => void;
}

const ENTITY = '/entity/:namespace/:kind/:name';

const ENVIRONMENT = `${ENTITY}/environments/:slug`;
const MAX_TIMELINE_PAGE = 200;
const MAX_SYSTEM_ENTITIES = 50;

function query(req: express.Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > 500)
    throw failure(
      'INVALID_REQUEST',
      `The query parameter ${name} is not valid.`,
    );
  return value;
}

function timeParam(req: express.Request, name: string): number | undefined {
  const value = query(req, name);
  if (value === undefined) return undefined;
  const time = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isSafeInteger(time))
    throw failure(
      'INVALID_REQUEST',
      `The query parameter ${name} ${quote(
        value,
      )} is not a time (ISO 8601 or milliseconds).`,
    );
  return time;
}

function kindsParam(req: express.Request): TimelineEntryKind[] | undefined {
  const value = query(req, 'kinds');
  if (!value) return undefined;
  const kinds = value.split(',');
  const unknown = kinds.filter(
    k => !TIMELINE_ENTRY_KINDS.includes(k as TimelineEntryKind),
  );
  if (unknown.length > 0)
    throw failure(
      'INVALID_REQUEST',
      `Unknown timeline kinds ${unknown
        .map(quote)
        .join(', ')}; known: ${TIMELINE_ENTRY_KINDS.join(', ')}.`,
    );
  return kinds as TimelineEntryKind[];
}

function limitParam(
  req: express.Request,
  fallback: number,
  max: number,
): number {
  const value = query(req, 'limit');
  const limit = value === undefined ? fallback : Number(value);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > max)
    throw failure(
      'INVALID_REQUEST',
      `limit must be a whole number from 1 to ${max}.`,
    );
  return limit;
}

function slugParam(req: express.Request, name: string): string | undefined {
  const value = query(req, name);
  if (value !== undefined && !isEnvironmentSlug(value))
    throw failure(
      'INVALID_REQUEST',
      `The query parameter ${name} ${quote(
        value,
      )} is not a GitLab environment slug.`,
    );
  return value;
}

/**
 * The history routes: deployments and what each brought, GitLab's
 * rollback, workload revisions, the persisted timeline, versions across
 * environments, the promotion diff and merge request previews. Each needs
 * `gitlab-env.resources.read` on the entity (the GitLab rollback also
 * `gitlab-env.deployments.rollback`) and is audited; the Kubernetes
 * rollback is an action (`workload.rollback`) of the actions routes.
 */
export function createHistoryRouter(
  options: HistoryRouterOptions,
): express.Router {
  const {
    service,
    history,
    versions,
    previews,
    timeline,
    catalog,
    permissions,
    httpAuth,
    auditor,
    logger,
  } = options;
  const router = Router();

  async function granted(
    req: express.Request,
    entityRef: string,
    wanted: ResourcePermission<'catalog-entity'>[],
  ) {
    const credentials = await httpAuth.credentials(req);
    const decisions = await permissions.authorize(
      wanted.map(permission => ({ permission, resourceRef: entityRef })),
      { credentials },
    );
    return {
      credentials,
      allowed: new Set(
        wanted
          .filter((_, i) => decisions[i]?.result === AuthorizeResult.ALLOW)
          .map(p => p.name),
      ),
    };
  }

  /** The entity the caller may read (and hold `needed` on), with the caller's credentials. */
  async function authorizedEntity(
    req: express.Request,
    needed?: ResourcePermission<'catalog-entity'>,
  ) {
    const { namespace, kind, name } = routeParams(req);
    const entityRef = stringifyEntityRef({ kind, namespace, name });
    const { credentials, allowed } = await granted(req, entityRef, [
      gitlabEnvResourcesReadPermission,
      ...(needed ? [needed] : []),
    ]);
    if (!allowed.has(gitlabEnvResourcesReadPermission.name))
      throw failure(
        'NOT_ALLOWED',
        `You are not allowed to see the environments of ${entityRef}.`,
      );
    if (needed && !allowed.has(needed.name))
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
    return { entity, entityRef, credentials };
  }

  /** One audit event per call: `serve` answers and returns what the event records. */
  async function audited(
    eventId: string,
    req: express.Request,
    serve: () => Promise<JsonObject>,
    severityLevel: 'low' | 'medium' = 'low',
  ) {
    const event = await auditor.createEvent({
      eventId,
      severityLevel,
      request: req,
      meta: {
        entityRef: `${req.params.kind}:${req.params.namespace}/${req.params.name}`,
        ...(req.params.slug && { environment: req.params.slug }),
        ...(req.params.deploymentId && {
          deploymentId: req.params.deploymentId.slice(0, 20),
        }),
      },
    });
    try {
      await event.success({ meta: await serve() });
    } catch (error) {
      const detail =
        error instanceof GitlabEnvFailure ? error.detail : undefined;
      await event.fail({
        error: error as Error,
        meta: { code: detail?.code, upstreamStatus: detail?.upstreamStatus },
      });
      throw error;
    }
  }

  router.get(`${ENVIRONMENT}/deployments`, (req, res) =>
    audited('environment-deployments-read', req, async () => {
      const { entity } = await authorizedEntity(req);
      const body = await history.page(entity, req.params.slug, {
        cursor: query(req, 'cursor'),
        limit: limitParam(req, 20, 100),
        signal: clientSignal(res),
      });
      res.json(body);
      return { deployments: body.deployments.length, source: body.source };
    }),
  );

  router.get(`${ENVIRONMENT}/deployments/:deploymentId/changes`, (req, res) =>
    audited('environment-deployment-changes-read', req, async () => {
      const { entity } = await authorizedEntity(req);
      const body = await history.changes(
        entity,
        req.params.slug,
        req.params.deploymentId,
        {
          signal: clientSignal(res),
        },
      );
      res.json(body);
      return { commits: body.commits.length, images: body.images.length };
    }),
  );

  router.post(`${ENVIRONMENT}/deployments/:deploymentId/rollback`, (req, res) =>
    audited(
      'environment-gitlab-rollback',
      req,
      async () => {
        const { entity, credentials } = await authorizedEntity(
          req,
          gitlabEnvDeploymentRollbackPermission,
        );
        // No client signal: a retry the client stopped waiting for still happens.
        const done = await history.rollback(
          entity,
          req.params.slug,
          req.params.deploymentId,
        );
        const { jobId, ...body } = done;
        try {
          options.onRolledBack?.({
            entity,
            slug: req.params.slug,
            deploymentId: req.params.deploymentId,
            jobId,
            newJobId: done.job.id,
            actor: actorOf(credentials.principal),
            message: done.message,
            jobUrl: done.job.webUrl,
          });
        } catch (error) {
          logger.warn(`Recording a GitLab rollback failed: ${error}`);
        }
        res.json(body);
        return { jobId, newJobId: done.job.id };
      },
      'medium',
    ),
  );

  router.get(`${ENVIRONMENT}/revisions`, (req, res) =>
    audited('environment-revisions-read', req, async () => {
      const { entity } = await authorizedEntity(req);
      const body = await workloadHistories(
        service,
        entity,
        req.params.slug,
        clientSignal(res),
      );
      res.json(body);
      return { workloads: body.workloads.length };
    }),
  );

  router.get(`${ENTITY}/timeline`, (req, res) =>
    audited('entity-timeline-read', req, async () => {
      const page = {
        environmentSlug: slugParam(req, 'environment'),
        kinds: kindsParam(req),
        from: timeParam(req, 'from'),
        to: timeParam(req, 'to'),
        cursor: query(req, 'cursor'),
        limit: limitParam(req, 50, MAX_TIMELINE_PAGE),
      };
      // The catalog and the database alone: no GitLab or cluster request.
      const { entityRef } = await authorizedEntity(req);
      const found = timeline
        ? await timeline.page({ entityRef, ...page })
        : { entries: [] };
      const body: TimelineResponse = {
        ...found,
        retentionDays: options.timelineSettings.retentionDays,
        recording: timeline
          ? TIMELINE_RECORDING
          : 'The timeline is off (gitlabEnv.timeline.enabled: false): nothing is recorded.',
      };
      res.json(body);
      return { entries: body.entries.length };
    }),
  );

  router.get(`${ENTITY}/versions`, (req, res) =>
    audited('entity-versions-read', req, async () => {
      const { entity } = await authorizedEntity(req);
      const body: VersionsResponse = {
        entities: [
          await versions.ofEntity(entity, { signal: clientSignal(res) }),
        ],
      };
      res.json(body);
      return { environments: body.entities[0].environments.length };
    }),
  );

  router.get('/versions', async (req, res) => {
    const event = await auditor.createEvent({
      eventId: 'system-versions-read',
      request: req,
      meta: { system: query(req, 'system')?.slice(0, 253) },
    });
    try {
      const systemText = query(req, 'system');
      let systemRef: string;
      try {
        systemRef = stringifyEntityRef(
          parseEntityRef(systemText ?? '', {
            defaultKind: 'system',
            defaultNamespace: 'default',
          }),
        );
      } catch {
        throw failure(
          'INVALID_REQUEST',
          `The system ${quote(systemText)} is not an entity reference.`,
        );
      }
      const credentials = await httpAuth.credentials(req);
      const { items } = await catalog.queryEntities(
        {
          filter: { 'relations.partOf': systemRef },
          limit: MAX_SYSTEM_ENTITIES,
        },
        { credentials },
      );
      const annotated = items.filter(
        e =>
          e.metadata.annotations?.['gitlab.com/project-slug'] ||
          e.metadata.annotations?.['gitlab.com/project-id'],
      );
      const decisions = await permissions.authorize(
        annotated.map(e => ({
          permission: gitlabEnvResourcesReadPermission,
          resourceRef: stringifyEntityRef(e),
        })),
        { credentials },
      );
      const readable = annotated.filter(
        (_, i) => decisions[i]?.result === AuthorizeResult.ALLOW,
      );
      const limit = pLimit(4);
      const signal = clientSignal(res);
      const body: VersionsResponse = {
        entities: await Promise.all(
          readable.map(e => limit(() => versions.ofEntity(e, { signal }))),
        ),
      };
      res.json(body);
      await event.success({ meta: { entities: body.entities.length } });
    } catch (error) {
      await event.fail({ error: error as Error });
      throw error;
    }
  });

  router.get(`${ENTITY}/promotion`, (req, res) =>
    audited('entity-promotion-read', req, async () => {
      const from = slugParam(req, 'from');
      const to = slugParam(req, 'to');
      if (!from || !to)
        throw failure(
          'INVALID_REQUEST',
          'Name the environments to compare with from= and to=.',
        );
      const { entity } = await authorizedEntity(req);
      const body = await versions.promotion(entity, from, to, {
        signal: clientSignal(res),
      });
      res.json(body);
      return { from, to, differences: body.differences.length };
    }),
  );

  router.get(`${ENTITY}/merge-requests/preview`, (req, res) =>
    audited('entity-merge-request-preview-read', req, async () => {
      const { entity } = await authorizedEntity(req);
      const body = await previews.preview(entity, {
        signal: clientSignal(res),
      });
      res.json(body);
      return { mergeRequests: body.mergeRequests.length };
    }),
  );

  router.use(gitlabEnvErrorHandler(logger));
  return router;
}
