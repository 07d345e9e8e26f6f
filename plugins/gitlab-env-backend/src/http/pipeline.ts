import type {
  AuditorService,
  AuditorServiceEventSeverityLevel,
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  Entity,
  makeValidator,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  BasicPermission,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import { JsonObject } from '@backstage/types';
import {
  GitlabEnvError,
  GitlabEnvironment,
  gitlabEnvResourcesReadPermission,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { Request } from 'express';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import { environmentOf } from '../locating';
import type { LocatedEntity, LocateOptions } from '../locating';
import { deadlineSignal } from '../transport/deadline';
import { isEnvironmentSlug, quote } from '../validation';
import { annotatedEntities } from './annotatedEntities';

/**
 * The one request pipeline every route, stream and action goes through,
 * in this order: validate the parameters → resolve the entity with the
 * caller's credentials → the permission framework (one batch per call) →
 * locate through the one locator (the façade's, ownership applied) →
 * run → audit with the real outcome. A route declares what it needs
 * (RouteSpec) and gets the result of each step (RouteContext); no step can
 * be skipped, and every call is audited, refusals and malformed bodies
 * included. Independent of HTTP: the express adapter (route.ts) feeds it
 * requests, other callers (the actions registry) credentials and
 * parameters.
 */

type EntityPermission = ResourcePermission<'catalog-entity'>;

/** One call's parameters as they came: path, query and (when the route takes one) body. */
export interface RawParameters {
  path: Record<string, string | undefined>;
  query: Record<string, unknown>;
  /** Request headers a route reads (lower-case names), e.g. `last-event-id`. */
  headers?: Record<string, string | undefined>;
  /** Reads the body; refusals (not JSON, too large) are INVALID_REQUEST. */
  body?: () => Promise<unknown>;
}

/** The entity (and environment) a call names, checked. */
export interface EntityTarget {
  entityRef: string;
  slug?: string;
}

/** What the call's entities are: one from its parameters, several, or every annotated one of the catalog. */
export type EntitiesMode = 'one' | 'listed' | 'catalog' | 'none';

export interface RouteSpec<P> {
  audit: {
    eventId: string;
    severity?: AuditorServiceEventSeverityLevel;
    /** What the record says of the request before anything is checked (values cut short). */
    meta?: (raw: RawParameters) => JsonObject;
    /** What it says of the body, read before the record is made, before it is checked. */
    body?: (body: unknown) => JsonObject;
  };
  /** Checks the parameters (and the body, when `body` is set) and returns them typed. */
  params: (raw: RawParameters, body: unknown) => P;
  /** The route takes a JSON body, read inside the pipeline. */
  body?: boolean;
  /**
   * `one`: the entity of `entity(params)`; `listed`: each of
   * `entities(params)`, authorized one by one (a stream of several);
   * `catalog`: every annotated entity the caller may read; `none`.
   */
  entities: EntitiesMode;
  /** The entity (and environment) a `one` route names. */
  entity?: (params: P) => EntityTarget;
  /** The entities a `listed` route names. */
  listed?: (params: P) => string[];
  permission: {
    /** A permission of the plugin as a whole. */
    basic?: BasicPermission;
    /** Required on the entity besides gitlab-env.resources.read. */
    required?: (params: P) => EntityPermission[];
    /** Decided on the entity for the route to use, not required. */
    decided?: EntityPermission[];
  };
  /** `environment` needs the target's slug; `listed` and `catalog` routes locate per item (RouteContext.locate). */
  locate: 'none' | 'entity' | 'environment';
  /**
   * Whether locating waits for namespaces the clusters give (LocateOptions):
   * `known` answers from GitLab alone. An `environment` route waits for its
   * environment's agent only.
   */
  clusterLookups?: (params: P) => 'wait' | 'known';
}

/** What a listed entity came to: readable, or why not. */
export type ListedEntity =
  | { entityRef: string; entity: Entity }
  | { entityRef: string; error: GitlabEnvError };

export interface RouteContext<P> {
  params: P;
  credentials: BackstageCredentials;
  /** Aborted when the caller leaves. */
  signal: AbortSignal;
  /**
   * Aborted when the caller leaves or the call reaches its deadline
   * (PipelineDeps.requestDeadlineMs), counted once its body (if any) is
   * read. The locate step carries it, and so must a one-shot route's own
   * work: a deadline started again after locating let an answer come the
   * locate step's time past the deadline. Streams, which outlast it, end
   * with `signal`.
   */
  requestSignal: AbortSignal;
  /** The names of the permissions granted on the entity (required and decided ones). */
  granted: Set<string>;
  /** `one` routes. */
  entity: Entity;
  entityRef: string;
  located: LocatedEntity;
  environment: GitlabEnvironment;
  /** `listed` routes: in the order named; `catalog` routes: the readable ones. */
  entities: ListedEntity[];
  /**
   * Locates an entity (of `listed` or `catalog` routes) through the one
   * locator; with `environment`, waiting for that environment's agent only,
   * with `clusterLookups: 'known'` for none (LocateOptions). Carries
   * `requestSignal`, so every entity of a one-shot call shares its one
   * deadline; a stream, which outlasts it, passes `signal` (its own).
   */
  locate: (
    entity: Entity,
    options?: Pick<LocateOptions, 'clusterLookups' | 'environment' | 'signal'>,
  ) => Promise<LocatedEntity>;
  /** Adds to what the audit record says, success or failure. */
  note: (meta: JsonObject) => void;
  /**
   * Ends the audit record as a success now, for a stream whose outcome is
   * that it opened (a log, the live stream); what happens later is the
   * stream's, not the request's.
   */
  opened: (meta?: JsonObject) => Promise<void>;
}

/**
 * A route's declaration and its own work, apart from how the answer is
 * sent: the HTTP route (route.ts) and the actions registry's action run the
 * same core through the same pipeline.
 */
export interface RouteCore<P, B> {
  spec: RouteSpec<P>;
  /** The route's own work, once every step of the pipeline passed. */
  run: (context: RouteContext<P>) => Promise<B>;
  /** What the audit record says of the outcome. */
  outcome: (body: B) => JsonObject;
}

/** What a call comes with: the caller's credentials and its parameters. */
export interface PipelineCall {
  credentials: BackstageCredentials;
  raw: RawParameters;
  /** The HTTP request, for the auditor to name the caller and address; absent for other callers. */
  request?: Request;
  signal?: AbortSignal;
  /**
   * What the audit record says of how a call without an HTTP request came
   * (e.g. the actions registry and the action's id). Without a request the
   * auditor can only name the plugin itself, so the record's `actor` names
   * the caller from `credentials`.
   */
  via?: JsonObject;
}

export interface PipelineDeps {
  catalog: CatalogService;
  permissions: PermissionsService;
  auditor: AuditorService;
  /** How long a call may take from its arrival (gitlabEnv.requestDeadlineMs): see RouteContext.requestSignal. */
  requestDeadlineMs: number;
  /** The one locator: the façade's (ownership applied). */
  locate: (
    entity: Entity,
    options: Pick<LocateOptions, 'signal' | 'clusterLookups' | 'environment'>,
  ) => Promise<LocatedEntity>;
}

/** Marks an error the pipeline audited, so the HTTP error handler does not audit it twice. */
const audited = new WeakSet<object>();

export function wasAudited(error: unknown): boolean {
  return typeof error === 'object' && error !== null && audited.has(error);
}

const validator = makeValidator();

function invalid(what: string, value: unknown, rule: string) {
  return failure(
    'INVALID_REQUEST',
    `The request's ${what} ${quote(value)} is not ${rule}.`,
    { hint: 'Open the entity again from the catalog.' },
  );
}

/** The entity ref and slug of `/entity/:namespace/:kind/:name(/environments/:slug)`, checked. */
export function entityPathParams(raw: RawParameters): EntityTarget {
  const { namespace, kind, name, slug } = raw.path;
  if (!validator.isValidNamespace(namespace))
    throw invalid('entity namespace', namespace, 'a valid catalog namespace');
  if (!validator.isValidKind(kind))
    throw invalid('entity kind', kind, 'a valid catalog kind');
  if (!validator.isValidEntityName(name))
    throw invalid('entity name', name, 'a valid catalog entity name');
  if (slug !== undefined && !isEnvironmentSlug(slug))
    throw invalid(
      'environment slug',
      slug,
      'a GitLab environment slug (lower-case letters, digits and -, at most 24)',
    );
  return {
    entityRef: stringifyEntityRef({
      kind: kind!,
      namespace: namespace!,
      name: name!,
    }),
    ...(slug !== undefined && { slug }),
  };
}

/** What an audit record says of a raw value: strings cut short, nothing else. */
export function auditText(value: unknown, max = 253): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

/** The entity path's ref as the record names it before it is checked. */
export function auditedEntity(raw: RawParameters): JsonObject {
  const { kind, namespace, name, slug } = raw.path;
  return {
    entityRef: `${auditText(kind, 63)}:${auditText(namespace, 63)}/${auditText(
      name,
      253,
    )}`,
    ...(slug !== undefined && { environment: auditText(slug, 63) }),
  };
}

function notAllowed(entityRef: string, permission?: string) {
  return permission
    ? failure(
        'NOT_ALLOWED',
        `You are not allowed to do this with the environments of ${entityRef} (permission ${permission}).`,
        { hint: 'Ask the portal’s administrators for that permission.' },
      )
    : failure(
        'NOT_ALLOWED',
        `You are not allowed to see the environments of ${entityRef}.`,
      );
}

function entityNotFound(entityRef: string) {
  return failure(
    'ENTITY_NOT_FOUND',
    `The catalog has no entity ${entityRef}, or you cannot see it.`,
    {
      hint: 'Check the address; the entity may have been removed from the catalog.',
    },
  );
}

/** Who calls, as Backstage names the principal: a user's entity ref, a service's subject. */
export function principalName(credentials: BackstageCredentials): string {
  const principal = credentials.principal as {
    type?: string;
    userEntityRef?: string;
    subject?: string;
  };
  if (principal?.type === 'user' && principal.userEntityRef)
    return principal.userEntityRef;
  if (principal?.type === 'service' && principal.subject)
    return principal.subject;
  return principal?.type ?? 'unknown';
}

export class RequestPipeline {
  constructor(private readonly deps: PipelineDeps) {}

  /**
   * Runs one call through every step, then `handler`; its answer (what the
   * audit record says of the outcome) ends the audit event. Throws the
   * typed failure of the first step that refuses, audited.
   */
  async run<P, R extends JsonObject | void>(
    spec: RouteSpec<P>,
    call: PipelineCall,
    handler: (context: RouteContext<P>) => Promise<R>,
  ): Promise<R> {
    const notes: JsonObject = {};
    // The body is read first, so the record names what was asked (the
    // action, the object); a body that cannot be read fails the record.
    let body: unknown;
    let unreadable: unknown;
    if (spec.body && call.raw.body)
      body = await call.raw.body().catch(error => {
        unreadable = error ?? new Error('unreadable body');
      });
    const event = await this.deps.auditor.createEvent({
      eventId: spec.audit.eventId,
      severityLevel: spec.audit.severity ?? 'low',
      request: call.request,
      meta: {
        ...(!call.request && { actor: principalName(call.credentials) }),
        ...call.via,
        ...spec.audit.meta?.(call.raw),
        ...(spec.body && !unreadable && spec.audit.body?.(body)),
      },
    });
    let ended = false;
    const succeed = async (meta?: JsonObject | void) => {
      if (ended) return;
      ended = true;
      await event.success({ meta: { ...notes, ...(meta ?? {}) } });
    };
    const deadline = deadlineSignal(this.deps.requestDeadlineMs, [call.signal]);
    try {
      if (unreadable) throw unreadable;
      const context = await this.prepare(
        spec,
        call,
        body,
        notes,
        deadline.signal,
      );
      context.opened = succeed;
      const outcome = await handler(context);
      await succeed(outcome);
      return outcome;
    } catch (error) {
      if (ended) throw error;
      ended = true;
      const detail =
        error instanceof GitlabEnvFailure ? error.detail : undefined;
      await event.fail({
        error: error as Error,
        meta: {
          ...notes,
          code: detail?.code ?? asGitlabEnvError(error).code,
          ...(detail?.upstreamStatus && {
            upstreamStatus: detail.upstreamStatus,
          }),
        },
      });
      if (typeof error === 'object' && error !== null) audited.add(error);
      throw error;
    } finally {
      // The call's work is over: the timer holds nothing past it.
      deadline.dispose();
    }
  }

  /** Runs a route's core through every step and returns its answer (audited as `run` does). */
  async answer<P, B>(core: RouteCore<P, B>, call: PipelineCall): Promise<B> {
    let body: B | undefined;
    await this.run(core.spec, call, async context => {
      body = await core.run(context);
      return core.outcome(body);
    });
    return body as B;
  }

  private async prepare<P>(
    spec: RouteSpec<P>,
    call: PipelineCall,
    body: unknown,
    notes: JsonObject,
    requestSignal: AbortSignal,
  ): Promise<RouteContext<P>> {
    const { credentials } = call;
    const signal = call.signal ?? new AbortController().signal;
    // 1. Parameters (and the body): the caller's mistakes, before anything is asked.
    const params = spec.params(call.raw, body);
    const context = {
      params,
      credentials,
      signal,
      requestSignal,
      granted: new Set<string>(),
      entities: [] as ListedEntity[],
      locate: (
        entity: Entity,
        options?: Pick<
          LocateOptions,
          'clusterLookups' | 'environment' | 'signal'
        >,
      ) => this.deps.locate(entity, { signal: requestSignal, ...options }),
      note: (meta: JsonObject) => {
        Object.assign(notes, meta);
      },
    } as unknown as RouteContext<P>;
    // 2. Permission of the plugin as a whole.
    if (spec.permission.basic) {
      const [decision] = await this.deps.permissions.authorize(
        [{ permission: spec.permission.basic }],
        { credentials },
      );
      if (decision.result !== AuthorizeResult.ALLOW)
        throw failure(
          'NOT_ALLOWED',
          `You are not allowed to do this (permission ${spec.permission.basic.name}).`,
          { hint: `Ask a portal admin for ${spec.permission.basic.name}.` },
        );
    }
    if (spec.entities === 'one') {
      // 3. The entity, with the caller's credentials; 4. its permissions, one batch.
      const target = spec.entity!(params);
      const entity = await this.deps.catalog.getEntityByRef(target.entityRef, {
        credentials,
      });
      if (!entity) throw entityNotFound(target.entityRef);
      context.entity = entity;
      context.entityRef = target.entityRef;
      const required = [
        gitlabEnvResourcesReadPermission,
        ...(spec.permission.required?.(params) ?? []),
      ];
      context.granted = await this.decide(
        credentials,
        target.entityRef,
        required,
        spec.permission.decided,
      );
      const missing = required.find(p => !context.granted.has(p.name));
      if (missing)
        throw notAllowed(
          target.entityRef,
          missing === gitlabEnvResourcesReadPermission
            ? undefined
            : missing.name,
        );
      // 5. Where it deploys, through the one locator.
      if (spec.locate !== 'none') {
        context.located = await this.deps.locate(entity, {
          signal: requestSignal,
          clusterLookups: spec.clusterLookups?.(params),
          ...(spec.locate === 'environment' && { environment: target.slug }),
        });
        if (spec.locate === 'environment')
          context.environment = environmentOf(context.located, target.slug!);
      }
    } else if (spec.entities === 'listed') {
      context.entities = await this.listed(
        credentials,
        spec.listed!(params),
        spec.permission.required?.(params) ?? [],
      );
      notes.denied = context.entities
        .filter(e => 'error' in e)
        .map(e => e.entityRef)
        .slice(0, 100);
    } else if (spec.entities === 'catalog') {
      const walked = await this.catalogEntities(credentials);
      context.entities = walked.readable;
      notes.entities = walked.readable.length;
      notes.denied = walked.denied;
    }
    return context;
  }

  /** Per permission asked (required and decided), in one batch: the names granted. */
  private async decide(
    credentials: BackstageCredentials,
    entityRef: string,
    required: EntityPermission[],
    decided: EntityPermission[] = [],
  ): Promise<Set<string>> {
    const asked = [
      ...new Map(
        [...required, ...decided].map(p => [p.name, p] as const),
      ).values(),
    ];
    const decisions = await this.deps.permissions.authorize(
      asked.map(permission => ({ permission, resourceRef: entityRef })),
      { credentials },
    );
    return new Set(
      asked
        .filter((_, i) => decisions[i]?.result === AuthorizeResult.ALLOW)
        .map(p => p.name),
    );
  }

  /** The batch form for several named entities: one catalog call, one permission batch. */
  private async listed(
    credentials: BackstageCredentials,
    entityRefs: string[],
    required: EntityPermission[],
  ): Promise<ListedEntity[]> {
    const refs = [...new Set(entityRefs)];
    if (refs.length === 0) return [];
    const permissions = [gitlabEnvResourcesReadPermission, ...required];
    const decisions = await this.deps.permissions.authorize(
      refs.flatMap(resourceRef =>
        permissions.map(permission => ({ permission, resourceRef })),
      ),
      { credentials },
    );
    const allowed = refs.filter((_, i) =>
      permissions.every(
        (_p, j) =>
          decisions[i * permissions.length + j]?.result ===
          AuthorizeResult.ALLOW,
      ),
    );
    const { items } = allowed.length
      ? await this.deps.catalog.getEntitiesByRefs(
          { entityRefs: allowed },
          { credentials },
        )
      : { items: [] };
    const found = new Map(
      allowed.map((ref, i) => [ref, items[i] ?? undefined] as const),
    );
    return refs.map(entityRef => {
      if (!found.has(entityRef))
        return {
          entityRef,
          error: asGitlabEnvError(notAllowed(entityRef)),
        };
      const entity = found.get(entityRef);
      return entity
        ? { entityRef, entity }
        : { entityRef, error: asGitlabEnvError(entityNotFound(entityRef)) };
    });
  }

  /** The batch form for the catalog: every annotated entity, one permission batch per page. */
  private async catalogEntities(
    credentials: BackstageCredentials,
  ): Promise<{ readable: ListedEntity[]; denied: number }> {
    const readable: ListedEntity[] = [];
    let denied = 0;
    for await (const page of annotatedEntities(
      this.deps.catalog,
      credentials,
    )) {
      if (page.length === 0) continue;
      const decisions = await this.deps.permissions.authorize(
        page.map(entity => ({
          permission: gitlabEnvResourcesReadPermission,
          resourceRef: stringifyEntityRef(entity),
        })),
        { credentials },
      );
      for (const [i, entity] of page.entries()) {
        if (decisions[i]?.result === AuthorizeResult.ALLOW)
          readable.push({ entityRef: stringifyEntityRef(entity), entity });
        else denied++;
      }
    }
    return { readable, denied };
  }
}

/** An entity ref as the catalog spells it, or undefined when it is not one. */
export function normalizedEntityRef(value: string): string | undefined {
  try {
    return stringifyEntityRef(parseEntityRef(value));
  } catch {
    return undefined;
  }
}
