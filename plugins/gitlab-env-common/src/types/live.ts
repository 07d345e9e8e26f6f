import { GitlabEnvError } from './errors';
import { ResourceGraphPatch } from './graph';
import { EnvironmentResourcesResponse, NarrowedScope } from './api';

/**
 * One environment a browser tab follows: the catalog entity that owns it
 * and the environment's slug.
 *
 * @public
 */
export interface LiveEnvironmentKey {
  entityRef: string;
  slug: string;
}

/**
 * How the backend keeps one kind of an environment current.
 * `watch`: a shared Kubernetes watch; `poll`: listed again periodically,
 * because the agent's watch cap (gitlabEnv.live.maxWatchesPerAgent) is
 * reached or the kind cannot be watched.
 *
 * @public
 */
export interface LiveKindState {
  /** `group/Kind` (`Pod` for the core group), as in GitlabEnvError.resource. */
  resource: string;
  mode: 'watch' | 'poll';
  /** Why the kind is polled, for the page to say. */
  reason?: string;
}

/**
 * The messages of the live stream (server-sent events),
 * `GET /live?environment=<entityRef>/<slug>&resume=<entityRef>/<slug>&…`:
 * one stream per browser tab, multiplexing every environment the tab shows
 * (the slug never holds a `/`, so the last `/` splits the pair). Each SSE
 * event's name is the message's `type` and its data the JSON message; its
 * `id` is the stream's sequence number. Ids are sent once every
 * environment of the stream has had its snapshot (or replay), so an id
 * means "everything up to here" for all of them.
 *
 * Resuming: the next request (a reconnect, or the tab following another
 * set of environments) sends the last id as `Last-Event-ID`, names the
 * environments that id covers in `resume` and the others in `environment`.
 * A `resume` environment gets the patches it missed when the backend still
 * keeps them, else a snapshot; an `environment` one always a snapshot.
 * Both are authorized alike: `resume` only narrows what is replayed.
 *
 * - `snapshot`: the whole state of an environment, sent when it is
 *   subscribed and whenever patches cannot be resumed.
 * - `patch`: what changed since the previous message of that environment,
 *   batched (about every 100 ms).
 * - `status`: how each kind is kept current, and whether the upstream
 *   stream is live or reconnecting.
 * - `error`: the environment cannot be followed (not allowed, not found,
 *   agent gone); the UI shows the error and keeps the last data.
 * - `heartbeat`: sent when nothing else was, so proxies and the client
 *   can tell a quiet stream from a dead one.
 *
 * @public
 */
export type LiveMessage =
  | {
      type: 'snapshot';
      key: LiveEnvironmentKey;
      resources: EnvironmentResourcesResponse;
    }
  | {
      type: 'patch';
      key: LiveEnvironmentKey;
      patch: ResourceGraphPatch;
      /** ISO time of the newest upstream event the patch contains. */
      dataAt: string;
      /** How many objects drifted (the environment's `driftedCount`), when the patch changed it. */
      driftedCount?: number;
    }
  | {
      type: 'status';
      key: LiveEnvironmentKey;
      upstream: 'live' | 'reconnecting';
      kinds: LiveKindState[];
      /**
       * In a shared namespace, what narrowing left out now (the
       * snapshot's `scope.narrowed`): a neighbour's churn changes it
       * without any change to this environment's objects.
       */
      narrowed?: NarrowedScope;
    }
  | { type: 'error'; key: LiveEnvironmentKey; error: GitlabEnvError }
  | { type: 'heartbeat'; at: string };
