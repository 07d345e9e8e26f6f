import {
  GitlabEnvError,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError, failure } from '../errors';
import type { ListableKind } from './discovery';
import { isRecord, statusMessage } from '../validation/json';
import { inspectObject, PlannedKind } from './objects';
import { apiVersionOf } from './objectSource';
import { ReadBounds } from './readBounds';
import { InformerEvent, replaceObjects } from './objectDiff';
import { informerStrings } from './stringPool';

export type { InformerEvent };

/** The namespaces a cluster-wide watch keeps; read per object, so never copied. */
export interface NamespaceSet {
  has(namespace: string): boolean;
  readonly size: number;
}

/** What subscribers of an informer hear. */
export interface InformerListener {
  /** Changes in the order they happened (a relist's differences included). */
  events(events: InformerEvent[]): void;
  /** The informer's state, error or warnings changed. */
  state(): void;
}

export interface InformerOptions {
  kind: ListableKind;
  /** Undefined: the whole cluster, objects of `namespaces()` kept. */
  namespace?: string;
  labelSelector?: string;
  mode: 'watch' | 'poll';
  /** Lists the kind in the scope within `bounds`, telling the list's resourceVersion. */
  list(options: {
    signal: AbortSignal;
    bounds: ReadBounds;
    keep?: (namespace: string) => boolean;
    onResourceVersion(resourceVersion: string): void;
  }): Promise<KubernetesObject[]>;
  /**
   * Opens a watch of the kind in the scope with `query` (watch, bookmarks,
   * resourceVersion, timeoutSeconds, labelSelector); absent for a source
   * that cannot watch.
   */
  watch?(options: {
    query: URLSearchParams;
    signal: AbortSignal;
    onOpen(): void;
  }): AsyncGenerator<unknown>;
  /** Objects kept (per namespace kept, for a watch across the cluster). */
  maxObjects: number;
  maxPagesPerList: number;
  pollIntervalMs: number;
  /** How long one watch request lasts before the API server ends it and it is opened again. */
  watchTimeoutSeconds: number;
  backoff: { initialMs: number; maxMs: number };
  /** For a watch across the cluster: the namespaces whose objects are kept. */
  namespaces?: () => NamespaceSet;
  /** Told each upstream request the informer opens (lists and watches). */
  onUpstream?(what: 'list' | 'watch'): void;
}

export type InformerState = 'starting' | 'live' | 'reconnecting' | 'stopped';

/** Ends a watch so the loop lists again (410 Gone) or backs off. */
class Relist extends Error {}

function objectKey(o: KubernetesObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

/** Jittered exponential back-off, so many informers of one agent do not reconnect in step. */
export function backoffDelay(
  attempt: number,
  backoff: { initialMs: number; maxMs: number },
): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Keeps one kind of one scope (a namespace, or the cluster filtered by
 * namespace) current for every subscriber: it lists in pages, then
 * watches from the list's resourceVersion with bookmarks, opening the
 * watch again from the last version it saw when the API server ends it;
 * it lists again on `410 Gone`, and backs off with jitter when the stream
 * breaks (KAS or agentk dropped it, the agent disconnected). In `poll`
 * mode it lists every `pollIntervalMs` instead. Each relist passes on only
 * the differences. Objects are validated and Secrets redacted as in reads
 * (objects.ts), fail-closed; they are bounded by `maxObjects`. Their short
 * string values are shared across objects (informerStrings).
 */
export class SharedInformer {
  private readonly byKey = new Map<string, KubernetesObject>();
  private readonly listeners = new Set<InformerListener>();
  private readonly controller = new AbortController();
  private readonly planned: PlannedKind;
  private resourceVersion: string | undefined;
  private wake: (() => void) | undefined;
  private relistRequested = false;
  private readonly afterList: Array<() => void> = [];
  private loop: Promise<void> | undefined;
  /** Resolves once the first list answered or failed. */
  readonly synced: Promise<void>;
  private markSynced!: () => void;

  state: InformerState = 'starting';
  /** Why the kind cannot be kept current now; cleared by the next list that succeeds. */
  error: GitlabEnvError | undefined;
  /** What the last list left out (malformed items, limits), by namespace when known. */
  warnings: Array<{ warning: GitlabEnvError; namespace?: string }> = [];
  /** True when objects were left out for lack of room. */
  limited = false;
  /** Set once a list succeeded: the informer holds data from then on. */
  hasListed = false;
  /** When the newest upstream event or list arrived. */
  dataAt: string | undefined;

  constructor(readonly options: InformerOptions) {
    this.currentMode = options.mode;
    this.planned = {
      apiVersion: apiVersionOf(options.kind.group, options.kind.version),
      kind: options.kind.kind,
    };
    this.synced = new Promise(resolve => {
      this.markSynced = resolve;
    });
  }

  private currentMode: 'watch' | 'poll';

  get mode(): 'watch' | 'poll' {
    return this.currentMode;
  }

  /**
   * A polled informer whose source can watch starts watching (a watch of
   * its agent ended and freed a slot): it lists once more, then watches
   * from that list's version. Subscribers hear it as a state change.
   */
  watchFromNow(): boolean {
    if (this.currentMode === 'watch' || !this.options.watch) return false;
    if (this.state === 'stopped') return false;
    this.currentMode = 'watch';
    this.relistRequested = true;
    this.wake?.();
    this.stateChanged();
    return true;
  }

  /**
   * A watching informer lists every `pollIntervalMs` from now on (the
   * planner needs its watch slot back); its watch, if open, ends.
   */
  pollFromNow(): boolean {
    if (this.currentMode === 'poll' || this.state === 'stopped') return false;
    this.currentMode = 'poll';
    this.wake?.();
    this.stateChanged();
    return true;
  }

  start() {
    this.loop ??= this.run();
  }

  async stop() {
    this.state = 'stopped';
    this.controller.abort();
    this.wake?.();
    await this.loop;
  }

  subscribe(listener: InformerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  objects(): KubernetesObject[] {
    return [...this.byKey.values()];
  }

  /** How many objects it holds in its whole scope. */
  get size(): number {
    return this.byKey.size;
  }

  /** Tells subscribers its state changed from outside (the planner's reason to poll it). */
  stateChanged() {
    if (this.state !== 'stopped') this.listeners.forEach(l => l.state());
  }

  /** Lists again now (a write changed something, a namespace was added to a watch across the cluster). */
  relist(): Promise<void> {
    this.relistRequested = true;
    this.wake?.();
    return new Promise(resolve => this.afterList.push(resolve));
  }

  /** Resolves everyone waiting for a list once one answered or failed. */
  private listDone() {
    this.markSynced();
    this.afterList.splice(0).forEach(resolve => resolve());
  }

  private setState(state: InformerState, error?: GitlabEnvError) {
    if (this.state === 'stopped') return;
    const changed =
      state !== this.state ||
      JSON.stringify(error) !== JSON.stringify(this.error);
    this.state = state;
    this.error = error;
    if (changed) this.listeners.forEach(l => l.state());
  }

  private emit(events: InformerEvent[]) {
    if (events.length === 0 || this.state === 'stopped') return;
    this.dataAt = new Date().toISOString();
    this.listeners.forEach(l => l.events(events));
  }

  private keeps(namespace: string | undefined): boolean {
    const wanted = this.options.namespaces?.();
    return !wanted || (namespace !== undefined && wanted.has(namespace));
  }

  private hasRoom(): boolean {
    const kept = this.options.namespaces?.().size ?? 1;
    return this.byKey.size < this.options.maxObjects * Math.max(1, kept);
  }

  private async run() {
    const { signal } = this.controller;
    let attempt = 0;
    while (!signal.aborted) {
      try {
        if (this.resourceVersion === undefined || this.relistRequested) {
          await this.list();
          attempt = 0;
        }
        if (this.currentMode === 'poll' || !this.options.watch) {
          await this.pause(this.options.pollIntervalMs);
          this.relistRequested = true;
          continue;
        }
        await this.watch();
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof Relist) {
          this.relistRequested = true;
          continue;
        }
        const detail = asGitlabEnvError(error);
        if (detail.upstreamStatus === 410) {
          // The version to resume from is gone (compaction): list again.
          this.relistRequested = true;
          continue;
        }
        this.setState('reconnecting', detail);
        this.listDone();
        // RBAC and a kind the server does not serve change rarely: poll
        // them, listing each time (a watch refused again would leave the
        // data as old as the last list).
        const slow =
          detail.code === 'KIND_FORBIDDEN' || detail.code === 'KIND_FAILED';
        await this.pause(
          slow
            ? this.options.pollIntervalMs
            : backoffDelay(attempt++, this.options.backoff),
        );
        if (slow) this.relistRequested = true;
      }
    }
    this.listDone();
  }

  private pause(ms: number): Promise<void> {
    const wake = new AbortController();
    this.wake = () => wake.abort();
    if (this.relistRequested && this.currentMode === 'poll')
      return Promise.resolve();
    return sleep(ms, AbortSignal.any([this.controller.signal, wake.signal]));
  }

  /** Lists the kind and passes on what differs from what the informer held. */
  private async list() {
    this.relistRequested = false;
    // Those who asked before this list began are served by it; later ones by the next.
    const waiting = this.afterList.splice(0);
    try {
      await this.listOnce();
    } finally {
      waiting.forEach(resolve => resolve());
    }
  }

  private async listOnce() {
    this.options.onUpstream?.('list');
    const warnings: Array<{ warning: GitlabEnvError; namespace?: string }> = [];
    const { namespaces } = this.options;
    const bounds = new ReadBounds(
      this.options.maxPagesPerList,
      this.options.maxObjects * Math.max(1, namespaces?.().size ?? 1),
      (warning, namespace) => warnings.push({ warning, namespace }),
      this.controller.signal,
    );
    let listedVersion: string | undefined;
    const listed = await this.options.list({
      signal: this.controller.signal,
      bounds,
      keep: namespaces ? ns => this.keeps(ns) : undefined,
      onResourceVersion: rv => {
        listedVersion = rv;
      },
    });
    const events = replaceObjects(this.byKey, listed, objectKey);
    for (const event of events)
      if (event.type !== 'DELETED') informerStrings.internValues(event.object);
    this.resourceVersion = listedVersion ?? '';
    this.hasListed = true;
    this.warnings = warnings;
    this.limited = bounds.exceeded;
    this.dataAt = new Date().toISOString();
    this.emit(events);
    this.setState('live', undefined);
    this.markSynced();
  }

  /** One watch request, from the last resourceVersion, until the server or the informer ends it. */
  private async watch() {
    const { labelSelector, watchTimeoutSeconds } = this.options;
    const query = new URLSearchParams({
      watch: '1',
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(watchTimeoutSeconds),
    });
    if (this.resourceVersion)
      query.set('resourceVersion', this.resourceVersion);
    if (labelSelector) query.set('labelSelector', labelSelector);
    // Asked for during the list that just ended: list again first.
    if (this.relistRequested) throw new Relist();
    // A relist asked for meanwhile ends this watch at once.
    const woken = new AbortController();
    this.wake = () => woken.abort();
    this.options.onUpstream?.('watch');
    const events = this.options.watch!({
      query,
      signal: AbortSignal.any([this.controller.signal, woken.signal]),
      onOpen: () => this.setState('live', undefined),
    });
    // A stream that is told to stop may still wait for its next bytes
    // before it ends: a relist does not wait for it.
    const iterator = events[Symbol.asyncIterator]();
    const woke = new Promise<'woke'>(resolve =>
      woken.signal.addEventListener('abort', () => resolve('woke'), {
        once: true,
      }),
    );
    for (;;) {
      const next = await Promise.race([iterator.next(), woke]);
      if (next === 'woke') {
        iterator.return?.(undefined).catch(() => undefined);
        break;
      }
      if (next.done) break;
      this.onWatchEvent(next.value);
      if (this.relistRequested) break;
    }
    if (this.relistRequested) throw new Relist();
  }

  private onWatchEvent(event: unknown) {
    const { kind } = this.options;
    if (!isRecord(event) || typeof event.type !== 'string') {
      throw failure(
        'UPSTREAM_MALFORMED',
        `A watch event of ${kind.label} has no type.`,
        { resource: kind.label },
      );
    }
    const { type, object } = event;
    if (type === 'BOOKMARK') {
      const rv =
        isRecord(object) && isRecord(object.metadata)
          ? object.metadata.resourceVersion
          : undefined;
      if (typeof rv === 'string' && /^[\w.-]{1,64}$/.test(rv))
        this.resourceVersion = rv;
      return;
    }
    if (type === 'ERROR') {
      // A Status: 410 means the version is too old (compacted): list again.
      if (isRecord(object) && object.code === 410) throw new Relist();
      const message = statusMessage(object) ?? 'no message';
      throw failure(
        'UPSTREAM_ERROR',
        `The watch of ${kind.label} ended with an error: ${message}`,
        { resource: kind.label },
      );
    }
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') {
      throw failure(
        'UPSTREAM_MALFORMED',
        `A watch event of ${kind.label} has the unknown type ${type.slice(
          0,
          32,
        )}.`,
        { resource: kind.label },
      );
    }
    const { object: checked, problem } = inspectObject(object, this.planned);
    if (!checked) {
      this.warnings = [
        ...this.warnings.slice(-20),
        {
          warning: {
            code: 'UPSTREAM_MALFORMED',
            message: `A watch event of ${kind.label} was left out: ${problem}.`,
            resource: kind.label,
          },
        },
      ];
      this.listeners.forEach(l => l.state());
      return;
    }
    const rv = checked.metadata?.resourceVersion;
    if (typeof rv === 'string' && /^[\w.-]{1,64}$/.test(rv))
      this.resourceVersion = rv;
    const namespace = checked.metadata?.namespace;
    if (!this.keeps(namespace)) return;
    const key = objectKey(checked);
    if (type === 'DELETED') {
      if (this.byKey.delete(key)) this.emit([{ type, object: checked }]);
      return;
    }
    const held = this.byKey.get(key);
    if (!held && !this.hasRoom()) {
      if (!this.limited) {
        this.limited = true;
        this.listeners.forEach(l => l.state());
      }
      return;
    }
    informerStrings.internValues(checked);
    this.byKey.set(key, checked);
    this.emit([{ type: held ? 'MODIFIED' : 'ADDED', object: checked }]);
  }
}

/** Whether a failure means the agent itself is unreachable (every kind meets it). */
export function isTransportFailure(error: GitlabEnvError | undefined): boolean {
  return (
    !!error &&
    [
      'AGENT_NOT_CONNECTED',
      'KAS_UNAVAILABLE',
      'UPSTREAM_ERROR',
      'UPSTREAM_TIMEOUT',
    ].includes(error.code)
  );
}
