import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import {
  LiveEnvironmentKey,
  LiveTreeMessage,
  TreeReader,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvApi } from '../GitlabEnvApi';
import { GitlabEnvApiError } from '../GitlabEnvApiError';
import {
  GitlabEnvLiveApi,
  LiveConnection,
  LiveEnvironmentState,
  LiveFollowOptions,
} from './GitlabEnvLiveApi';
import {
  LiveEnvironmentMessage,
  applyLiveMessage,
  initialLiveState,
} from './liveEnvironmentState';
import { readServerSentEvents } from './sse';

/** Timings and bounds of the live client; every field has a default. @public */
export interface GitlabEnvLiveClientOptions {
  /**
   * No byte within this long after the request: a proxy buffers the
   * stream, and the tab polls instead. 15 s by default.
   */
  firstEventTimeoutMs?: number;
  /** No byte (heartbeats included) for this long: the stream is dead. 45 s by default. */
  heartbeatTimeoutMs?: number;
  /** First reconnect delay, doubled per failed attempt up to `maxBackoffMs`. 1 s by default. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often the polling fallback rereads each environment. 15 s by default. */
  pollIntervalMs?: number;
  /** Bound on one event of the stream (a snapshot of a big environment). 64 MiB by default. */
  maxEventChars?: number;
  /** Lets the environments a page mounts at once share one stream. 50 ms by default. */
  settleMs?: number;
  /** After polling this long, streaming is tried again (the proxy or backend may have changed). 5 min by default. */
  streamRetryMs?: number;
}

interface Followed {
  key: LiveEnvironmentKey;
  listeners: Set<(state: LiveEnvironmentState) => void>;
  /** Listeners that want the environment read when polling. */
  pollers: number;
  state: LiveEnvironmentState;
  /** Reads the stream's tree: its snapshot, then each patch. */
  reader: TreeReader;
  /** The data is a stream's snapshot with every later message of that stream applied. */
  streamed: boolean;
  /**
   * What is held is everything the stream sent for it up to `lastEventId`:
   * the next stream names it in `resume` and gets only what it missed.
   */
  held: boolean;
}

/** Statuses that say the backend has no live route: poll, do not retry. */
const NO_LIVE_ROUTE = new Set([404, 405, 501]);

class BufferedStream extends Error {}
class SilentStream extends Error {}
class NoLiveRoute extends Error {}

/**
 * The live API over the backend's `/live` route: one server-sent event
 * stream per browser tab (this API instance), multiplexing every followed
 * environment. It is read with the app's fetch, not EventSource, so the
 * user's Backstage token goes along. A dropped stream is reopened with
 * jittered exponential back-off and `Last-Event-ID`, so the backend can
 * resume; a stream silent past the heartbeat timeout counts as dropped.
 * Where no byte gets through in time (a proxy that buffers event streams)
 * or the backend has no live route, the tab polls the resources route.
 *
 * @public
 */
export class GitlabEnvLiveClient implements GitlabEnvLiveApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;
  private readonly gitlabEnvApi: GitlabEnvApi;
  private readonly options: Required<GitlabEnvLiveClientOptions>;
  private readonly followed = new Map<string, Followed>();
  private connection: LiveConnection = { mode: 'connecting' };
  /** Set once streaming is found not to get through; the tab then polls. */
  private pollingReason?: string;
  private generation = 0;
  private controller?: AbortController;
  private restartTimer?: ReturnType<typeof setTimeout>;
  private lastEventId?: string;
  /** The followed set the stream (or polling) runs for; '' when none runs. */
  private runningKeys = '';
  private readonly wakers = new Set<() => void>();

  constructor(options: {
    discoveryApi: DiscoveryApi;
    fetchApi: FetchApi;
    gitlabEnvApi: GitlabEnvApi;
    options?: GitlabEnvLiveClientOptions;
  }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
    this.gitlabEnvApi = options.gitlabEnvApi;
    this.options = {
      firstEventTimeoutMs: 15_000,
      heartbeatTimeoutMs: 45_000,
      initialBackoffMs: 1_000,
      maxBackoffMs: 30_000,
      pollIntervalMs: 15_000,
      maxEventChars: 64 * 1024 * 1024,
      settleMs: 50,
      streamRetryMs: 300_000,
      ...options.options,
    };
  }

  follow(
    key: LiveEnvironmentKey,
    listener: (state: LiveEnvironmentState) => void,
    options: LiveFollowOptions = {},
  ): () => void {
    const id = keyString(key);
    const poll = options.poll !== false;
    let entry = this.followed.get(id);
    if (!entry) {
      entry = {
        key: { entityRef: canonicalRef(key.entityRef), slug: key.slug },
        listeners: new Set(),
        pollers: 0,
        state: initialLiveState(this.connection),
        reader: new TreeReader(),
        streamed: false,
        held: false,
      };
      this.followed.set(id, entry);
      this.scheduleRestart();
    } else if (poll && entry.pollers === 0 && this.pollingReason) {
      this.scheduleRestart();
    }
    const followed = entry;
    followed.listeners.add(listener);
    if (poll) followed.pollers++;
    if (followed.state.tree || followed.state.error) listener(followed.state);
    return () => {
      if (!followed.listeners.delete(listener)) return;
      if (poll) followed.pollers--;
      // Dropped once the set settles: a page that follows it again at once
      // (an effect that re-runs stops everything, then follows) keeps what
      // the tab holds, and the stream goes on.
      if (followed.listeners.size === 0) this.scheduleRestart();
    };
  }

  retry(): void {
    for (const wake of [...this.wakers]) wake();
  }

  // ---- the loop --------------------------------------------------------

  /**
   * Reopens the stream (or the polling) for the new set of environments,
   * once it settles. The environments still followed resume from
   * `lastEventId`; only the new ones start from snapshots.
   */
  private scheduleRestart() {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      for (const [id, entry] of this.followed)
        if (entry.listeners.size === 0) this.followed.delete(id);
      const keys = [...this.followed.keys()].sort().join('\n');
      // The same set, still streamed: nothing to reopen.
      if (keys === this.runningKeys && !this.pollingReason) return;
      const generation = ++this.generation;
      this.controller?.abort();
      this.controller = undefined;
      for (const wake of [...this.wakers]) wake();
      this.runningKeys = keys;
      if (this.followed.size === 0) return;
      if (this.pollingReason) this.poll(generation);
      else this.stream(generation);
    }, this.options.settleMs);
  }

  private current(generation: number) {
    return generation === this.generation;
  }

  private async stream(generation: number) {
    let attempt = 0;
    while (this.current(generation)) {
      const outcome = await this.connectOnce();
      if (!this.current(generation)) return;
      if (outcome.pollBecause) {
        this.pollingReason = outcome.pollBecause;
        this.poll(generation);
        return;
      }
      attempt = outcome.received ? 1 : attempt + 1;
      this.setConnection({ mode: 'reconnecting', reason: outcome.reason });
      await this.sleep(this.backoff(attempt));
    }
  }

  /** One stream, read until it ends, fails or is silent too long. */
  private async connectOnce(): Promise<{
    received: boolean;
    reason?: string;
    pollBecause?: string;
  }> {
    const entries = [...this.followed.values()];
    const controller = new AbortController();
    this.controller = controller;
    let received = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number, reason: Error) => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => controller.abort(reason), ms);
    };
    arm(
      this.options.firstEventTimeoutMs,
      new BufferedStream(
        `no event arrived within ${Math.round(
          this.options.firstEventTimeoutMs / 1000,
        )} s; a proxy between the browser and Backstage probably buffers event streams`,
      ),
    );
    const alive = () => {
      if (!received) {
        received = true;
        this.setConnection({ mode: 'live' });
      }
      arm(
        this.options.heartbeatTimeoutMs,
        new SilentStream(
          `the stream was silent for ${Math.round(
            this.options.heartbeatTimeoutMs / 1000,
          )} s`,
        ),
      );
    };
    try {
      await this.readStream(entries, controller.signal, alive);
      return { received, reason: 'the backend closed the stream' };
    } catch (error) {
      const cause = controller.signal.aborted
        ? controller.signal.reason
        : error;
      if (cause instanceof BufferedStream || cause instanceof NoLiveRoute)
        return { received, pollBecause: cause.message };
      return { received, reason: describe(cause) };
    } finally {
      clearTimeout(watchdog);
      controller.abort();
    }
  }

  /**
   * Reads one stream of `entries` in the tree form (what the graph draws):
   * those held up to `lastEventId` are named in `resume` (the backend
   * replays what they missed), the others in `environment` (they get a
   * snapshot).
   */
  private async readStream(
    entries: Followed[],
    signal: AbortSignal,
    alive: () => void,
  ) {
    const baseUrl = await this.discoveryApi.getBaseUrl('gitlab-env');
    const resuming = this.lastEventId !== undefined;
    const query = [
      ...entries.map(entry => {
        const param = resuming && entry.held ? 'resume' : 'environment';
        return `${param}=${encodeURIComponent(keyString(entry.key))}`;
      }),
      'form=tree',
    ].join('&');
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (resuming && entries.some(entry => entry.held))
      headers['last-event-id'] = this.lastEventId!;
    const response = await this.fetchApi.fetch(`${baseUrl}/live?${query}`, {
      signal,
      headers,
    });
    if (NO_LIVE_ROUTE.has(response.status)) {
      throw new NoLiveRoute(
        `the backend does not serve live updates (HTTP ${response.status})`,
      );
    }
    if (response.status === 400) {
      // The request itself is refused (e.g. more environments than one
      // stream may follow): asking again would not help.
      const error = await GitlabEnvApiError.fromResponse(response);
      throw new NoLiveRoute(
        `the backend refused the live stream: ${error.message}`,
      );
    }
    if (!response.ok) throw await GitlabEnvApiError.fromResponse(response);
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || !response.body) {
      throw new NoLiveRoute(
        `the live route answered ${
          type || 'no content type'
        } instead of an event stream`,
      );
    }
    // Entries sent something after the last id hold more than
    // `lastEventId` says, until the next id covers it.
    const unconfirmed = new Set<Followed>();
    for await (const event of readServerSentEvents(
      response.body,
      this.options.maxEventChars,
      alive,
      signal,
    )) {
      const message = parseMessage(event.data);
      if (message && message.type !== 'heartbeat') {
        const entry = this.followed.get(keyString(message.key));
        if (entry) {
          this.deliver(entry, message);
          entry.held = false;
          unconfirmed.add(entry);
        }
      }
      if (event.id !== undefined) {
        // The backend sends ids once every environment of the stream had
        // its snapshot or replay: an id covers them all.
        this.lastEventId = event.id;
        for (const confirmed of unconfirmed)
          confirmed.held = confirmed.streamed;
        unconfirmed.clear();
      }
    }
  }

  private async poll(generation: number) {
    this.setConnection({ mode: 'polling', reason: this.pollingReason });
    // Polled data is no stream's: streaming again starts from snapshots.
    this.lastEventId = undefined;
    for (const entry of this.followed.values())
      entry.streamed = entry.held = false;
    const tryStreamingAt = Date.now() + this.options.streamRetryMs;
    while (this.current(generation)) {
      if (Date.now() >= tryStreamingAt) {
        this.pollingReason = undefined;
        this.stream(generation);
        return;
      }
      await Promise.all(
        [...this.followed.values()]
          .filter(entry => entry.pollers > 0)
          .map(entry => this.pollOne(entry)),
      );
      await this.sleep(this.options.pollIntervalMs);
    }
  }

  private async pollOne(entry: Followed) {
    const id = keyString(entry.key);
    try {
      const resources = await this.gitlabEnvApi.getEnvironmentResources(
        parseEntityRef(entry.key.entityRef),
        entry.key.slug,
      );
      if (this.followed.get(id) !== entry) return;
      this.update(
        entry,
        applyLiveMessage(
          entry.state,
          { type: 'read', resources },
          entry.reader,
        ),
      );
    } catch (error) {
      if (this.followed.get(id) !== entry) return;
      this.update(entry, {
        ...entry.state,
        pollError: error instanceof Error ? error : new Error(String(error)),
      });
    }
  }

  // ---- state -----------------------------------------------------------

  private deliver(entry: Followed, message: LiveEnvironmentMessage) {
    let next: LiveEnvironmentState;
    try {
      next = applyLiveMessage(entry.state, message, entry.reader);
    } catch {
      // A patch that does not fit what is held (a malformed message): the
      // held data stays, and the next stream sends a snapshot.
      entry.streamed = false;
      return;
    }
    // After an error the backend stops following it in this stream.
    if (message.type === 'snapshot') entry.streamed = true;
    else if (message.type === 'error') entry.streamed = false;
    this.update(entry, next);
  }

  private setConnection(connection: LiveConnection) {
    this.connection = connection;
    for (const entry of this.followed.values()) {
      this.update(entry, { ...entry.state, connection });
    }
  }

  private update(entry: Followed, state: LiveEnvironmentState) {
    entry.state = state;
    for (const listener of [...entry.listeners]) listener(state);
  }

  private backoff(attempt: number): number {
    const { initialBackoffMs, maxBackoffMs } = this.options;
    const ceiling = Math.min(
      maxBackoffMs,
      initialBackoffMs * 2 ** (attempt - 1),
    );
    // Full jitter: tabs that lost the backend together do not return together.
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** Waits, or less when the set of environments changes. */
  private sleep(ms: number): Promise<void> {
    return new Promise(resolve => {
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }
}

/** The key as the backend sends it back: the entity ref in its canonical (lower-cased kind and namespace) form. */
function keyString(key: LiveEnvironmentKey): string {
  return `${canonicalRef(key.entityRef)}/${key.slug}`;
}

function canonicalRef(entityRef: string): string {
  try {
    return stringifyEntityRef(parseEntityRef(entityRef));
  } catch {
    return entityRef;
  }
}

const MESSAGE_TYPES = new Set([
  'snapshot',
  'patch',
  'status',
  'error',
  'heartbeat',
]);

/** The message of an event's data; undefined for what is not one (an untrusted stream). */
function parseMessage(data: string): LiveTreeMessage | undefined {
  try {
    const message = JSON.parse(data);
    if (
      typeof message !== 'object' ||
      message === null ||
      !MESSAGE_TYPES.has(message.type)
    )
      return undefined;
    if (message.type !== 'heartbeat') {
      const key = message.key;
      if (typeof key?.entityRef !== 'string' || typeof key?.slug !== 'string')
        return undefined;
    }
    return message as LiveTreeMessage;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
