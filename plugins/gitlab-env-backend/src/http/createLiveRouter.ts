import { Entity } from '@backstage/catalog-model';
import {
  LiveEnvironmentKey,
  LiveMessage,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import { Writable } from 'stream';
import Router from 'express-promise-router';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import type { LocatedEntity } from '../locating';
import { normalizedEntityRef, RawParameters } from './pipeline';
import { route, RouteDeps } from './route';
import { encodeOnce, encodeSnapshotOnce } from './sharedEncodings';
import { encodeServerSentEvent } from './sseChunks';
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
  service: Pick<GitlabEnvironmentsService, 'locateLive'>;
  planner: LivePlanner;
  settings: LiveSettings;
}

/** The environments a stream follows, and which of them `Last-Event-ID` covers. */
interface FollowRequest {
  keys: LiveEnvironmentKey[];
  /** `entityRef/slug` of the environments the client holds up to `Last-Event-ID`. */
  resumable: Set<string>;
  resumeFrom?: number;
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
  };
}

function keyName(key: LiveEnvironmentKey): string {
  return `${key.entityRef}/${key.slug}`;
}

function lastEventId(header: string | undefined): number | undefined {
  return header && /^\d{1,17}$/.test(header) ? Number(header) : undefined;
}

/**
 * `GET /live?environment=<entityRef>/<slug>&resume=…`: one server-sent
 * event stream per browser tab (see LiveMessage). Each environment is
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
        const { keys, resumable, resumeFrom } = context.params;
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
              (located = context.locate(entity, { environment: key.slug })),
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
          message: LiveMessage | Buffer[],
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

        const sendSnapshot = (
          key: LiveEnvironmentKey,
          environment: LiveEnvironment,
        ) => {
          const seq = planner.currentSeq();
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
          write({ type: 'status', key, ...environment.status() }, seq);
        };
        const forward =
          (key: LiveEnvironmentKey, environment: LiveEnvironment) =>
          (event: LiveEnvironmentEvent) => {
            if (event.type === 'patch')
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
            // Only what the client says it holds is replayed; the others
            // (new to this stream) need their snapshot.
            const replay =
              resumeFrom !== undefined &&
              resumable.has(keyName(key)) &&
              resumeFrom <= planner.currentSeq()
                ? environment.since(resumeFrom)
                : undefined;
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
        return { environments: keys.map(keyName), failed };
      },
    ),
  );
  return router;
}
