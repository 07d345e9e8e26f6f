import { Entity } from '@backstage/catalog-model';
import {
  environmentObject,
  LiveEnvironmentKey,
  LiveMessage,
  LiveTreeMessage,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import { Writable } from 'stream';
import Router from 'express-promise-router';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import type { LocatedEntity } from '../locating';
import {
  auditedEntity,
  auditText,
  entityPathParams,
  normalizedEntityRef,
  RawParameters,
} from './pipeline';
import { route, RouteDeps } from './route';
import { encodeOnce, encodeSnapshotOnce } from './sharedEncodings';
import { encodeServerSentEvent } from './sseChunks';
import { SharedTree } from './sharedTrees';
import { GitlabEnvironmentsService } from '../facade';
import { isEnvironmentSlug, quote } from '../validation';
import { LiveSettings } from '../config';
import { LivePlanner } from '../planning/LivePlanner';
import {
  LiveEnvironment,
  LiveEnvironmentEvent,
} from '../assembling/LiveEnvironment';

/** What may wait unsent for one client before its stream is ended. */
const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

/**
 * Per stream, the largest snapshot written to it since it last drained:
 * a snapshot is written whole (buffers shared by every viewer), so an
 * environment whose snapshot passes the bound alone must not end every
 * stream that is sent one.
 */
const snapshotAllowance = new WeakMap<Writable, number>();

/**
 * Writes to a client's stream unless it let more than `maxUnsent` bytes
 * (beyond the largest snapshot written since it last drained) pile up
 * unread; then ends the stream and answers false. Ending bounds what is
 * held for a client that stopped reading; it reconnects with
 * Last-Event-ID and resumes.
 */
export function writeUnlessStalled(
  out: Writable,
  chunks: Array<string | Buffer>,
  maxUnsent = MAX_UNSENT_BYTES,
  options: { snapshot?: boolean } = {},
): boolean {
  const allowance = snapshotAllowance.get(out) ?? 0;
  if (out.writableLength > maxUnsent + allowance) {
    out.end();
    return false;
  }
  let size = 0;
  // One writev for an event's chunks (a snapshot is hundreds).
  out.cork();
  for (const chunk of chunks) {
    size += chunk.length;
    if (chunk.length > 0) out.write(chunk);
  }
  out.uncork();
  if (options.snapshot && size > allowance && out.writableLength > 0) {
    if (allowance === 0) out.once('drain', () => snapshotAllowance.delete(out));
    snapshotAllowance.set(out, size);
  }
  return true;
}

export interface LiveRouterOptions extends RouteDeps {
  service: Pick<
    GitlabEnvironmentsService,
    'locateLive' | 'getEnvironmentResources'
  >;
  planner: LivePlanner;
  settings: LiveSettings;
}

/** The environments a stream follows, and which of them `Last-Event-ID` covers. */
interface FollowRequest {
  keys: LiveEnvironmentKey[];
  /** `entityRef/slug` of the environments the client holds up to `Last-Event-ID`. */
  resumable: Set<string>;
  resumeFrom?: number;
  /** `objects`: whole objects and graphs (LiveMessage); `tree`: the compact tree (LiveTreeMessage). */
  form: 'objects' | 'tree';
}

function streamForm(query: RawParameters['query']): FollowRequest['form'] {
  const form = query.form ?? 'objects';
  if (form === 'objects' || form === 'tree') return form;
  throw failure(
    'INVALID_REQUEST',
    `The live stream's form ${quote(
      String(form).slice(0, 40),
    )} is neither objects nor tree.`,
  );
}

function queryValues(query: RawParameters['query'], name: string): string[] {
  const raw = query[name];
  return (Array.isArray(raw) ? raw : [raw]).filter(
    (v): v is string => typeof v === 'string',
  );
}

/** One `entityRef/slug` of the query, checked; the last `/` splits it. */
function parseEnvironment(value: string, param: string): LiveEnvironmentKey {
  const at = value.lastIndexOf('/');
  const slug = value.slice(at + 1);
  const entityRef =
    at > 0 ? normalizedEntityRef(value.slice(0, at)) : undefined;
  if (!entityRef) {
    throw failure(
      'INVALID_REQUEST',
      `The live stream's ${param} ${quote(
        value.slice(0, 300),
      )} is not <kind>:<namespace>/<name>/<slug>.`,
    );
  }
  if (!isEnvironmentSlug(slug)) {
    throw failure(
      'INVALID_REQUEST',
      `The live stream's ${param} slug ${quote(
        value.slice(at + 1, at + 101),
      )} is not a GitLab environment slug.`,
    );
  }
  return { entityRef, slug };
}

/**
 * `environment=` (start with a snapshot) and `resume=` (held up to
 * `Last-Event-ID`) together are the environments followed, at most `max`.
 * Both are followed alike, checks included; `resume` only says which of
 * them may be replayed. One named by both starts with a snapshot.
 */
function requestedEnvironments(raw: RawParameters, max: number): FollowRequest {
  const fresh = queryValues(raw.query, 'environment');
  const resumed = queryValues(raw.query, 'resume');
  const count = fresh.length + resumed.length;
  if (count === 0) {
    throw failure(
      'INVALID_REQUEST',
      'The live stream needs at least one environment=<entityRef>/<slug> (or resume=<entityRef>/<slug>).',
    );
  }
  if (count > max) {
    throw failure(
      'INVALID_REQUEST',
      `The live stream follows at most ${max} environments (gitlabEnv.live.maxEnvironmentsPerStream); ${count} were asked for.`,
      { hint: 'Open fewer environments in one tab.' },
    );
  }
  const keys = new Map<string, LiveEnvironmentKey>();
  const resumable = new Set<string>();
  for (const [values, param] of [
    [resumed, 'resume'],
    [fresh, 'environment'],
  ] as const) {
    for (const value of values) {
      const key = parseEnvironment(value, param);
      const name = keyName(key);
      if (param === 'resume') resumable.add(name);
      else resumable.delete(name);
      keys.set(name, key);
    }
  }
  return {
    keys: [...keys.values()],
    resumable,
    resumeFrom: lastEventId(raw.headers?.['last-event-id']),
    form: streamForm(raw.query),
  };
}

function keyName(key: LiveEnvironmentKey): string {
  return `${key.entityRef}/${key.slug}`;
}

function lastEventId(header: string | undefined): number | undefined {
  return header && /^\d{1,17}$/.test(header) ? Number(header) : undefined;
}

/**
 * `GET /live?environment=<entityRef>/<slug>&resume=…&form=tree`: one server-sent
 * event stream per browser tab (see LiveMessage). `form=tree` (what the
 * page asks) sends each environment as the compact tree the graph draws
 * (LiveTreeMessage, one tree per environment shared by its viewers), and
 * a patch only when something drawn changed; the whole object of a node
 * is `GET …/environments/:slug/object?id=` (below), from the same live
 * state. Without it, whole objects and graphs. Each environment is
 * authorized on its own (gitlabEnvResourcesReadPermission on its entity)
 * and looked up with the caller's credentials; one the caller may not read
 * gets an `error` message and nothing else, whichever parameter named it.
 * A request that sends `Last-Event-ID` gets, for each `resume` environment,
 * the patches missed since that id when they are still kept, else a fresh
 * snapshot; `environment` ones always start with a snapshot. So a tab that
 * changes the set it follows reloads only what it did not hold. Event ids
 * are sent once every environment of the stream has had its snapshot (or
 * replay), so an id always means "everything up to here" for every
 * environment of the stream, which is what lets the next request name
 * them in `resume`.
 */
export function createLiveRouter(options: LiveRouterOptions): express.Router {
  const { service, planner, settings } = options;
  const router = Router();

  router.get(
    '/live',
    route(
      options,
      {
        audit: {
          eventId: 'environment-live-subscribe',
          meta: raw => ({
            environments: [
              ...queryValues(raw.query, 'environment'),
              ...queryValues(raw.query, 'resume'),
            ]
              .slice(0, 100)
              .map(v => v.slice(0, 300)),
          }),
        },
        params: raw =>
          requestedEnvironments(raw, settings.maxEnvironmentsPerStream),
        // Each environment on its own: one the caller may not read gets an
        // error message, the others their updates.
        entities: 'listed',
        listed: params => params.keys.map(k => k.entityRef),
        permission: {},
        locate: 'none',
      },
      async (context, _req, res) => {
        const { keys, resumable, resumeFrom, form } = context.params;
        const readable = new Map(
          context.entities.map(e => [e.entityRef, e] as const),
        );
        // One location per environment (the locator's listing is cached):
        // each waits for its own agent's cluster only, never another's.
        const locations = new Map<string, Promise<LocatedEntity>>();
        const locate = (entity: Entity, key: LiveEnvironmentKey) => {
          const name = keyName(key);
          let located = locations.get(name);
          if (!located)
            locations.set(
              name,
              (located = context.locate(entity, {
                environment: key.slug,
                // The stream's, not the request's deadline.
                signal: context.signal,
              })),
            );
          return located;
        };
        // Set one by one, before anything is written: Backstage's compression
        // middleware looks for `no-transform` with getHeader, which does not
        // see headers given to writeHead, and a compressed event stream holds
        // events back.
        res.status(200);
        res.setHeader('content-type', 'text/event-stream; charset=utf-8');
        res.setHeader('cache-control', 'no-cache, no-transform');
        res.setHeader('connection', 'keep-alive');
        // nginx and similar proxies would otherwise hold events back.
        res.setHeader('x-accel-buffering', 'no');
        res.flushHeaders();
        // A first byte at once: locating the environments may take a while,
        // and the page tells a proxy that buffers the stream by its silence.
        res.write(': open\n\n');
        const closed = new AbortController();
        res.on('close', () => closed.abort());
        let ready = false;
        let failed = 0;
        let lastWrite = Date.now();

        const write = (
          message: LiveMessage | LiveTreeMessage | Buffer[],
          seq?: number,
          snapshot = false,
        ) => {
          if (closed.signal.aborted) return;
          const sent = writeUnlessStalled(
            res,
            [
              ready && seq !== undefined ? `id: ${seq}\n` : '',
              ...(Array.isArray(message)
                ? message
                : encodeServerSentEvent(message)),
            ],
            MAX_UNSENT_BYTES,
            { snapshot },
          );
          if (!sent) closed.abort();
          lastWrite = Date.now();
        };
        const heartbeat = setInterval(() => {
          if (Date.now() - lastWrite >= settings.heartbeatMs - 50)
            write(
              { type: 'heartbeat', at: new Date().toISOString() },
              planner.currentSeq(),
            );
        }, Math.max(50, Math.min(settings.heartbeatMs, 5_000)));
        const cleanups: Array<() => void> = [() => clearInterval(heartbeat)];
        closed.signal.addEventListener('abort', () =>
          cleanups.splice(0).forEach(c => c()),
        );

        const trees = form === 'tree';
        const sendSnapshot = (
          key: LiveEnvironmentKey,
          environment: LiveEnvironment,
        ) => {
          const seq = planner.currentSeq();
          if (trees) {
            const shared = SharedTree.of(environment);
            const tree = shared.snapshot();
            write(
              encodeSnapshotOnce(shared, tree, key, () => ({
                type: 'snapshot',
                key,
                tree: { ...tree, entityRef: key.entityRef },
              })),
              seq,
              true,
            );
          } else {
            const resources = environment.snapshot();
            write(
              encodeSnapshotOnce(environment, resources, key, () => ({
                type: 'snapshot',
                key,
                resources: { ...resources, entityRef: key.entityRef },
              })),
              seq,
              true,
            );
          }
          write({ type: 'status', key, ...environment.status() }, seq);
        };
        const sendPatch = (
          key: LiveEnvironmentKey,
          environment: LiveEnvironment,
          event: Extract<LiveEnvironmentEvent, { type: 'patch' }>,
        ) => {
          if (!trees) {
            write(
              encodeOnce(
                event,
                key,
                () => ({
                  type: 'patch',
                  key,
                  patch: event.patch,
                  dataAt: event.dataAt,
                  ...(event.driftedCount !== undefined && {
                    driftedCount: event.driftedCount,
                  }),
                }),
                0,
              ),
              event.seq,
            );
            return;
          }
          const patch = SharedTree.of(environment).patchOf(event);
          // Nothing the page draws changed: nothing to send.
          if (patch === null) return;
          if (patch === undefined) {
            sendSnapshot(key, environment);
            return;
          }
          write(
            encodeOnce(
              patch,
              key,
              () => ({ type: 'patch', key, patch, dataAt: event.dataAt }),
              0,
            ),
            event.seq,
          );
        };
        const forward =
          (key: LiveEnvironmentKey, environment: LiveEnvironment) =>
          (event: LiveEnvironmentEvent) => {
            if (event.type === 'patch') sendPatch(key, environment, event);
            else if (event.type === 'reset') sendSnapshot(key, environment);
            else
              write(
                { type: 'status', key, ...environment.status() },
                event.seq,
              );
          };

        const follow = async (key: LiveEnvironmentKey) => {
          const listed = readable.get(key.entityRef);
          try {
            if (!listed || 'error' in listed)
              throw new GitlabEnvFailure(
                listed && 'error' in listed
                  ? listed.error
                  : asGitlabEnvError(
                      failure(
                        'NOT_ALLOWED',
                        `You are not allowed to see the environments of ${key.entityRef}.`,
                      ),
                    ),
              );
            const { entity } = listed;
            const target = await service.locateLive(entity, key.slug, {
              signal: closed.signal,
              located: await locate(entity, key),
            });
            const { environment, release } = await planner.follow(target);
            if (closed.signal.aborted) {
              release();
              return;
            }
            // The tree follows the environment from here: before the
            // replay is taken, as starting it flushes what is pending.
            const shared = trees ? SharedTree.of(environment) : undefined;
            // Only what the client says it holds is replayed; the others
            // (new to this stream) need their snapshot, as do tree viewers
            // missing patches from before the tree followed.
            let replay =
              resumeFrom !== undefined &&
              resumable.has(keyName(key)) &&
              resumeFrom <= planner.currentSeq()
                ? environment.since(resumeFrom)
                : undefined;
            if (
              shared &&
              replay?.some(
                e => e.type === 'patch' && shared.patchOf(e) === undefined,
              )
            )
              replay = undefined;
            const send = forward(key, environment);
            if (replay) replay.forEach(send);
            else sendSnapshot(key, environment);
            const unsubscribe = environment.subscribe(send);
            cleanups.push(unsubscribe, release);
          } catch (error) {
            if (closed.signal.aborted) return;
            failed++;
            write({ type: 'error', key, error: asGitlabEnvError(error) });
          }
        };

        await Promise.all(keys.map(follow));
        ready = true;
        // From here every id means "all of this stream's environments up to here".
        write(
          { type: 'heartbeat', at: new Date().toISOString() },
          planner.currentSeq(),
        );
        return { environments: keys.map(keyName), failed, form };
      },
    ),
  );

  // `GET …/environments/:slug/object?id=<node id>`: one object of the
  // environment for the drawer (EnvironmentObjectResponse), from the live
  // store through the one read path (no upstream read when the stream
  // follows it), as gitlab-env.resources.read, located like every
  // environment read.
  router.get(
    '/entity/:namespace/:kind/:name/environments/:slug/object',
    route(
      options,
      {
        audit: {
          eventId: 'environment-object-read',
          meta: raw => ({
            ...auditedEntity(raw),
            object: auditText(raw.query.id, 300),
          }),
        },
        params: raw => ({ ...entityPathParams(raw), id: objectId(raw.query) }),
        entities: 'one',
        entity: params => params,
        permission: {},
        locate: 'environment',
      },
      async (
        { entity, located, environment, params, requestSignal },
        _req,
        res,
      ) => {
        // The one read path: the live store's state when the stream follows
        // the environment or it was read within the TTL (no upstream
        // request), else its kinds listed once, held for the next drawer.
        const state = await service.getEnvironmentResources(
          entity,
          environment.slug,
          { signal: requestSignal, located },
        );
        const body = environmentObject(state, params.id);
        if (!body)
          throw failure(
            'OBJECT_NOT_FOUND',
            `${environment.name} holds no ${quote(
              params.id.slice(0, 300),
            )} now.`,
            {
              hint: 'It was deleted, or it is not one of this environment’s objects; the graph shows what it holds.',
            },
          );
        res.json(body);
        return { found: Boolean(body.object), events: body.events.length };
      },
    ),
  );
  return router;
}

/** A node id (`group/Kind/namespace/name`), as the graph names objects. */
function objectId(query: RawParameters['query']): string {
  const { id } = query;
  if (typeof id !== 'string' || id.length === 0 || id.length > 1024)
    throw failure(
      'INVALID_REQUEST',
      'The object route needs id=<group/Kind/namespace/name> (at most 1,024 characters), as the graph names the object.',
    );
  return id;
}
