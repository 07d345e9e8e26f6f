import {
  GitlabEnvError,
  KubernetesObject,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError, failure, GitlabEnvFailure } from '../errors';
import type { ListableKind } from './discovery';
import { isRecord, statusMessage } from '../validation/json';
import { inspectObject, PlannedKind } from './objects';
import { apiVersionOf } from './objectSource';
import { ReadBounds } from './readBounds';
import { InformerEvent, replaceObjects } from './objectDiff';
import { informerStrings, StringPool } from './stringPool';

export type { InformerEvent };

/** The namespaces a cluster-wide watch keeps; read per object, so never copied. */
export interface NamespaceSet {
  has(namespace: string): boolean;
  keys(): IterableIterator<string>;
  readonly size: number;
}

/** What one list of a kind found: what a replica shares with the others (see InformerOptions.sharedList). */
export interface ListedKind {
  objects: KubernetesObject[];
  resourceVersion?: string;
  warnings: Array<{ warning: GitlabEnvError; namespace?: string }>;
  limited: boolean;
  /** ISO time the list was made upstream. */
  listedAt: string;
  /** The cluster refused the list (RBAC): shared too, as lasting as the permission. */
  refused?: GitlabEnvError;
}

/**
 * How an informer keeps its kind: `watch` (list, then watch), `poll`
 * (list every poll interval) or `once` (list when asked, as a read does,
 * and hold what it found; see LivePlanner).
 */
export type InformerMode = 'watch' | 'poll' | 'once';

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
  mode: InformerMode;
  /**
   * Lists the kind in the scope (or in `namespace` alone, for a
   * cluster-wide informer) within `bounds`, telling the list's
   * resourceVersion. Objects come validated and redacted, their short
   * string values pooled in `bounds.strings` when it is set (inspectOrWarn
   * does all three): a list of what the informer does not hold yet is
   * walked once.
   */
  list(options: {
    signal: AbortSignal;
    bounds: ReadBounds;
    keep?: (namespace: string) => boolean;
    namespace?: string;
    onResourceVersion(resourceVersion: string): void;
  }): Promise<KubernetesObject[]>;
  /**
   * The store replicas share: the first list may come from it (listed by
   * another replica, or by this one before a restart), and lists made
   * while the informer holds no watch go to it.
   */
  sharedList?: {
    get(): Promise<ListedKind | undefined>;
    set(listed: ListedKind): void;
  };
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
  /**
   * Across the cluster: keep the objects of every namespace until `narrow`
   * (the overview still learns which namespaces it reads), so a namespace
   * that joins meanwhile is covered by the list under way or made, not
   * listed on its own.
   */
  keepEveryNamespace?: boolean;
  /** Told each upstream request the informer opens (lists and watches). */
  onUpstream?(what: 'list' | 'watch'): void;
  /**
   * A list of the kind in this scope already under way (started before
   * the informer, see LivePlanner.listEarly), for the namespaces `asked`
   * (all, for an informer of one namespace), or keeping every namespace
   * (`every`, keepEveryNamespace): its first list takes its outcome
   * instead of asking again. Undefined when there is none.
   */
  earlyList?(
    asked: ReadonlySet<string> | undefined,
    every: boolean,
  ): Promise<ListedKind> | undefined;
}

/**
 * One list of a kind in a scope, bounded as an informer bounds it: pages,
 * and objects (per namespace kept, across the cluster). What the informer
 * lists, and what a list started before it lists (LivePlanner.listEarly).
 */
export async function listScope(options: {
  list: InformerOptions['list'];
  maxPagesPerList: number;
  maxObjects: number;
  /** Across the cluster: whether a namespace's objects are kept, and how many namespaces are. */
  keep?: (namespace: string) => boolean;
  namespaceCount?: number;
  signal: AbortSignal;
  /**
   * Whether the objects' short string values are pooled (informerStrings)
   * as they are read (the default: every object of a first list is kept).
   * A relist leaves it to the informer, which pools only what changed.
   */
  poolStrings?: boolean;
}): Promise<ListedKind> {
  const listedAt = new Date().toISOString();
  const warnings: ListedKind['warnings'] = [];
  const bounds = new ReadBounds(
    options.maxPagesPerList,
    options.maxObjects * Math.max(1, options.namespaceCount ?? 1),
    (warning, namespace) => warnings.push({ warning, namespace }),
    options.signal,
    options.poolStrings === false ? undefined : informerStrings,
  );
  let resourceVersion: string | undefined;
  const objects = await options.list({
    signal: options.signal,
    bounds,
    keep: options.keep,
    onResourceVersion: rv => {
      resourceVersion = rv;
    },
  });
  return {
    objects,
    resourceVersion,
    warnings,
    limited: bounds.exceeded,
    listedAt,
  };
}

export type InformerState = 'starting' | 'live' | 'reconnecting' | 'stopped';

/** Ends a watch so the loop lists again (410 Gone) or backs off. */
class Relist extends Error {}

/** Pools the strings of what a list added or changed, when the list did not as it read them. */
function internChanged(events: readonly InformerEvent[], strings: StringPool) {
  for (const event of events)
    if (event.type !== 'DELETED') strings.internValues(event.object);
}

/** How byNamespace keys an object in its namespace: objectKey is `namespace/` and this. */
function nameKey(o: KubernetesObject): string {
  return `${o.metadata?.name}`;
}

function objectKey(o: KubernetesObject): string {
  return `${o.metadata?.namespace ?? ''}/${nameKey(o)}`;
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
    // Ended before the wait began (stopped as its list answered): an
    // aborted signal never fires 'abort' again.
    if (signal.aborted) {
      resolve();
      return;
    }
    // Infinity: until the signal ends it (setTimeout would fire at once).
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Settled already: what waits for nothing shares it. */
const DONE: Promise<void> = Promise.resolve();

/**
 * Keeps one kind of one scope (a namespace, or the cluster filtered by
 * namespace) current for every subscriber: it lists in pages, then
 * watches from the list's resourceVersion with bookmarks, opening the
 * watch again from the last version it saw when the API server ends it;
 * it lists again on `410 Gone`, and backs off with jitter when the stream
 * breaks (KAS or agentk dropped it, the agent disconnected). In `poll`
 * mode it lists every `pollIntervalMs` instead; in `once` mode it lists
 * once and then only when asked (`relist`, `listNamespace`), holding what
 * it found for reads. Each relist passes on only the differences. Objects are validated and Secrets redacted as in reads
 * (objects.ts), fail-closed; they are bounded by `maxObjects`. Their short
 * string values are shared across objects (informerStrings).
 */
export class SharedInformer {
  private readonly byKey = new Map<string, KubernetesObject>();
  /** The same objects by namespace, then name (nameKey): no second key string per object. */
  private readonly byNamespace = new Map<
    string,
    Map<string, KubernetesObject>
  >();
  private readonly listeners = new Set<InformerListener>();
  /**
   * Listeners of one namespace's objects (a cluster-wide informer's many
   * environments): one listener as itself, several in a Set, since most
   * namespaces have one and a cluster-wide informer has thousands.
   */
  private readonly namespaceListeners = new Map<
    string,
    InformerListener | Set<InformerListener>
  >();
  /** Namespace lists in flight, so concurrent askers share one. */
  private readonly namespaceLists = new Map<string, Promise<void>>();
  /** When each namespace was last listed on its own (ms). */
  private readonly namespaceListedAt = new Map<string, number>();
  /** A namespace's own list that failed (ms), until a list covers it. */
  private readonly namespaceFailures = new Map<
    string,
    { error: GitlabEnvError; failedAt: number }
  >();
  /** For a cluster-wide informer: the namespaces a list that succeeded covered whole since they joined. */
  private readonly covered = new Set<string>();
  /** Namespaces dropped (forgetNamespace) since the list under way began: it no longer speaks for them. */
  private readonly forgottenSinceList = new Set<string>();
  /** Keeps every namespace's objects (keepEveryNamespace) until narrowed. */
  private keepingEvery: boolean;
  /** A list of every namespace succeeded whole while keepingEvery: it covers them all. */
  private coversEvery = false;
  /** Narrowed while a list of every namespace was under way: the namespaces it covers then. */
  private narrowedDuringList: Set<string> | undefined;
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
  /** Whether `synced` has resolved (the first list answered or failed). */
  isSynced = false;

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
  /** When the last list that succeeded was made (ms): what it holds is at least as new. */
  listedAt: number | undefined;
  /** When the last list failed (ms); undefined once one succeeds. */
  failedAt: number | undefined;

  constructor(readonly options: InformerOptions) {
    this.currentMode = options.mode;
    this.keepingEvery =
      !!options.keepEveryNamespace && options.namespace === undefined;
    this.planned = {
      apiVersion: apiVersionOf(options.kind.group, options.kind.version),
      kind: options.kind.kind,
    };
    this.synced = new Promise(resolve => {
      this.markSynced = resolve;
    });
  }

  private currentMode: InformerMode;

  get mode(): InformerMode {
    return this.currentMode;
  }

  /**
   * Keeps the kind another way from now on; subscribers hear it as a
   * state change. To `watch`: from a poll it lists once more, then watches
   * from that list's version (a watch of its agent freed a slot); from
   * `once` it watches from the version it holds (the API server replays
   * what changed since, or answers 410 and it lists again). To `poll`: its
   * watch, if open, ends (the planner needs the slot back); held data older
   * than a poll interval is listed again at once. To `once`: its watch or
   * polling ends and it holds what it has, current as of now.
   */
  setMode(mode: InformerMode): boolean {
    const previous = this.currentMode;
    if (mode === previous || this.state === 'stopped') return false;
    if (mode === 'watch' && !this.options.watch) return false;
    this.currentMode = mode;
    if (mode === 'watch' && previous === 'poll') this.relistRequested = true;
    // Held data older than a poll (a first list under way serves as is).
    if (
      mode === 'poll' &&
      previous === 'once' &&
      this.hasListed &&
      (this.listedAt ?? 0) < Date.now() - this.options.pollIntervalMs
    )
      this.relistRequested = true;
    // A watch kept the data current until now.
    if (mode === 'once' && previous === 'watch' && this.state === 'live')
      this.listedAt = Date.now();
    this.wake?.();
    this.stateChanged();
    return true;
  }

  /** setMode('watch'): a polled informer whose slot came free. */
  watchFromNow(): boolean {
    return this.setMode('watch');
  }

  /** setMode('poll'): a watching informer gives its slot back. */
  pollFromNow(): boolean {
    return this.setMode('poll');
  }

  /**
   * Since when (ms) what it holds of `namespace` is known current: now
   * while a watch is live, else the start of the newest list that covered
   * it; undefined before any list did.
   */
  currentSince(namespace?: string): number | undefined {
    if (this.currentMode === 'watch' && this.state === 'live' && this.hasListed)
      return Date.now();
    const own = namespace ? this.namespaceListedAt.get(namespace) : undefined;
    if (own === undefined) return this.listedAt;
    return Math.max(own, this.listedAt ?? 0);
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

  /**
   * Subscribes to every change, or to the changes of one namespace's
   * objects (state changes are heard either way), until `unsubscribe`
   * with the same listener and namespace.
   */
  subscribe(listener: InformerListener, namespace?: string): void {
    if (namespace === undefined) {
      this.listeners.add(listener);
      return;
    }
    const held = this.namespaceListeners.get(namespace);
    if (held === undefined) this.namespaceListeners.set(namespace, listener);
    else if (held instanceof Set) held.add(listener);
    else if (held !== listener)
      this.namespaceListeners.set(namespace, new Set([held, listener]));
  }

  unsubscribe(listener: InformerListener, namespace?: string): void {
    if (namespace === undefined) {
      this.listeners.delete(listener);
      return;
    }
    const held = this.namespaceListeners.get(namespace);
    if (held === listener) this.namespaceListeners.delete(namespace);
    else if (held instanceof Set) {
      held.delete(listener);
      if (held.size === 0) this.namespaceListeners.delete(namespace);
    }
  }

  get subscribers(): number {
    let count = this.listeners.size;
    for (const held of this.namespaceListeners.values())
      count += held instanceof Set ? held.size : 1;
    return count;
  }

  private eachListener(call: (listener: InformerListener) => void) {
    this.listeners.forEach(call);
    for (const held of this.namespaceListeners.values())
      if (held instanceof Set) held.forEach(call);
      else call(held);
  }

  objects(): KubernetesObject[] {
    return [...this.byKey.values()];
  }

  /** The objects it holds of one namespace. */
  objectsIn(namespace: string): KubernetesObject[] {
    return [...(this.byNamespace.get(namespace)?.values() ?? [])];
  }

  /** The object of that namespace and name, when it holds it. */
  object(namespace: string, name: string): KubernetesObject | undefined {
    return this.byNamespace.get(namespace)?.get(name);
  }

  /** Drops what it holds of a namespace nobody reads any more (a cluster-wide informer). */
  forgetNamespace(namespace: string) {
    // Every namespace is kept until narrowed: it is dropped then if nobody reads it.
    if (this.keepingEvery) return;
    const held = this.byNamespace.get(namespace);
    this.forgottenSinceList.add(namespace);
    this.covered.delete(namespace);
    this.namespaceFailures.delete(namespace);
    this.namespaceListedAt.delete(namespace);
    if (held) this.dropNamespace(namespace);
  }

  /**
   * Whether what it holds of the namespace is all a list found there
   * (absence then means absent), not a namespace that joined and awaits
   * its list, or whose list failed.
   */
  covers(namespace: string): boolean {
    if (this.options.namespace !== undefined)
      return this.hasListed && namespace === this.options.namespace;
    return (
      (this.coversEvery || this.covered.has(namespace)) &&
      !this.namespaceFailures.has(namespace)
    );
  }

  /**
   * Stops keeping every namespace (keepEveryNamespace): from now on only
   * the objects of `namespaces()` are kept, and what it holds of the
   * others is dropped. Those it keeps stay covered by the list that kept
   * every namespace, made or under way.
   */
  narrow() {
    if (!this.keepingEvery) return;
    this.keepingEvery = false;
    const wanted = this.options.namespaces?.() ?? new Map();
    if (this.coversEvery)
      for (const namespace of wanted.keys()) this.covered.add(namespace);
    else this.narrowedDuringList = new Set(wanted.keys());
    this.coversEvery = false;
    // Deleting the entry at hand does not disturb a Map's iteration.
    for (const namespace of this.byNamespace.keys())
      if (!wanted.has(namespace)) this.dropNamespace(namespace);
  }

  private dropNamespace(namespace: string) {
    const held = this.byNamespace.get(namespace);
    if (!held) return;
    for (const name of held.keys()) this.byKey.delete(`${namespace}/${name}`);
    this.byNamespace.delete(namespace);
  }

  /**
   * Why the namespace's own list (listNamespace) failed, when no list
   * covered it since: what the informer holds of it is incomplete.
   */
  namespaceFailure(
    namespace: string,
  ): { error: GitlabEnvError; failedAt: number } | undefined {
    // Asked per environment and kind, almost always of none.
    return this.namespaceFailures.size === 0
      ? undefined
      : this.namespaceFailures.get(namespace);
  }

  /** Keeps the namespace index in step with what the events changed in byKey. */
  private indexEvents(events: readonly InformerEvent[]) {
    for (let i = 0; i < events.length; i++) {
      const { type, object } = events[i];
      const namespace = object.metadata?.namespace ?? '';
      const key = nameKey(object);
      let held = this.byNamespace.get(namespace);
      if (type === 'DELETED') {
        held?.delete(key);
        if (held?.size === 0) this.byNamespace.delete(namespace);
        continue;
      }
      if (!held) this.byNamespace.set(namespace, (held = new Map()));
      held.set(key, object);
    }
  }

  /** How many objects it holds in its whole scope. */
  get size(): number {
    return this.byKey.size;
  }

  /** Tells subscribers its state changed from outside (the planner's reason to poll it). */
  stateChanged() {
    if (this.state !== 'stopped') this.eachListener(l => l.state());
  }

  /** Lists again now (a write changed something, a namespace was added to a watch across the cluster). */
  relist(): Promise<void> {
    this.relistRequested = true;
    this.wake?.();
    return new Promise(resolve => this.afterList.push(resolve));
  }

  /** What it holds is out of date (a write changed it): the next read lists it again. */
  markStale() {
    this.listedAt = 0;
    this.namespaceListedAt.clear();
  }

  /**
   * Lists one namespace of a cluster-wide informer again, alone (a read
   * that lacks an object there, a namespace new to it), passing on what
   * differs; concurrent askers share the one list. An informer of one
   * namespace lists itself again. Not for a watching informer: its watch
   * keeps every namespace current, and a list of one would race it.
   */
  listNamespace(namespace: string): Promise<void> {
    if (this.options.namespace !== undefined || this.currentMode === 'watch')
      return this.relist();
    const inFlight = this.namespaceLists.get(namespace);
    if (inFlight) return inFlight;
    const started = Date.now();
    const listed = this.listOneNamespace(namespace, started).finally(() =>
      this.namespaceLists.delete(namespace),
    );
    this.namespaceLists.set(namespace, listed);
    return listed;
  }

  /** Resolves once a list of that namespace alone, if one is under way, is done. */
  namespaceListed(namespace: string): Promise<void> {
    return this.namespaceLists.get(namespace) ?? DONE;
  }

  private async listOneNamespace(namespace: string, started: number) {
    this.options.onUpstream?.('list');
    // Nothing held of it: every object listed is kept, pooled as it is read.
    const pooled = !this.byNamespace.has(namespace);
    const bounds = new ReadBounds(
      this.options.maxPagesPerList,
      this.options.maxObjects,
      () => undefined,
      this.controller.signal,
      pooled ? informerStrings : undefined,
    );
    try {
      const listed = await this.options.list({
        signal: this.controller.signal,
        bounds,
        namespace,
        onResourceVersion: () => undefined,
      });
      if (this.state === 'stopped') return;
      const held = new Map<string, KubernetesObject>();
      this.byNamespace
        .get(namespace)
        ?.forEach((object, name) => held.set(`${namespace}/${name}`, object));
      const events = replaceObjects(held, listed, objectKey);
      if (!pooled) internChanged(events, informerStrings);
      for (const event of events) {
        if (event.type === 'DELETED')
          this.byKey.delete(objectKey(event.object));
        else this.byKey.set(objectKey(event.object), event.object);
      }
      this.indexEvents(events);
      this.namespaceListedAt.set(namespace, started);
      this.namespaceFailures.delete(namespace);
      if (this.options.namespaces?.().has(namespace))
        this.covered.add(namespace);
      this.emit(events);
    } catch (error) {
      if (this.state === 'stopped') return;
      // Its readers must not take what is held of it as whole.
      this.namespaceFailures.set(namespace, {
        error: asGitlabEnvError(error),
        failedAt: Date.now(),
      });
      this.stateChanged();
    }
  }

  /** Resolves everyone waiting for a list once one answered or failed. */
  private listDone() {
    this.isSynced = true;
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
    if (changed) this.eachListener(l => l.state());
  }

  private emit(events: InformerEvent[], dataAt = new Date().toISOString()) {
    if (events.length === 0 || this.state === 'stopped') return;
    this.dataAt = dataAt;
    this.listeners.forEach(l => l.events(events));
    if (this.namespaceListeners.size === 0) return;
    const byNamespace = new Map<string, InformerEvent[]>();
    for (const event of events) {
      const namespace = event.object.metadata?.namespace ?? '';
      if (!this.namespaceListeners.has(namespace)) continue;
      const list = byNamespace.get(namespace);
      if (list) list.push(event);
      else byNamespace.set(namespace, [event]);
    }
    for (const [namespace, list] of byNamespace) {
      const held = this.namespaceListeners.get(namespace);
      if (held instanceof Set) held.forEach(l => l.events(list));
      else held?.events(list);
    }
  }

  private keeps(namespace: string | undefined): boolean {
    if (this.keepingEvery) return true;
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
        if (this.currentMode === 'once') {
          // Until asked to list again or to keep the kind current.
          await this.pause(Infinity);
          continue;
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
        this.failedAt = Date.now();
        this.listDone();
        // A read's informer tries again when the next read asks.
        if (this.currentMode === 'once') {
          await this.pause(Infinity);
          continue;
        }
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
    if (this.relistRequested && this.currentMode !== 'watch')
      return Promise.resolve();
    // Woken by a mode change made while it was not pausing.
    if (!Number.isFinite(ms) && this.currentMode !== 'once')
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
    const first = !this.hasListed && this.failedAt === undefined;
    const started = Date.now();
    // A namespace that joins a cluster-wide informer during its list may
    // miss the pages before: it is listed alone (listNamespace), and this
    // list changes only the namespaces it was asked for at its start.
    let asked = this.options.namespaces
      ? new Set(this.options.namespaces().keys())
      : undefined;
    const every = this.keepingEvery;
    this.narrowedDuringList = undefined;
    this.forgottenSinceList.clear();
    // What it lists then holds more than its namespaces' key says.
    const shared = every ? undefined : this.options.sharedList;
    let listed = first ? await shared?.get() : undefined;
    if (listed?.refused) throw new GitlabEnvFailure(listed.refused);
    // Whether its objects' strings were pooled as they were read (listScope).
    let pooled = false;
    if (!listed) {
      try {
        // An early list kept what this list would keep (LivePlanner.takeEarly).
        const early = first && this.options.earlyList?.(asked, every);
        pooled = !!early || this.byKey.size === 0;
        listed = await (early || this.listUpstream(pooled));
      } catch (error) {
        const refused = asGitlabEnvError(error);
        if (this.currentMode === 'once' && refused.code === 'KIND_FORBIDDEN')
          shared?.set({
            objects: [],
            warnings: [],
            limited: false,
            listedAt: new Date(started).toISOString(),
            refused,
          });
        throw error;
      }
      if (this.currentMode === 'once') shared?.set(listed);
    }
    let objects = listed.objects;
    if (every) {
      // Every namespace's pages were kept until narrowed: the list covers
      // all of them still, or the ones kept when it was narrowed.
      const whole = this.keepingEvery && !listed.limited;
      this.coversEvery = whole;
      if (whole) this.namespaceFailures.clear();
      asked = whole ? undefined : this.narrowedDuringList ?? asked;
      if (asked) {
        const within = asked;
        objects = objects.filter(o => within.has(o.metadata?.namespace ?? ''));
      }
      this.narrowedDuringList = undefined;
    }
    // One dropped meanwhile (and maybe joined again, listed alone) was
    // filtered out of the pages after it: the list says nothing of it.
    this.forgottenSinceList.forEach(n => asked?.delete(n));
    asked?.forEach(n => {
      this.namespaceFailures.delete(n);
      this.covered.add(n);
    });
    const events = this.replaceListed(objects, asked);
    if (!pooled) internChanged(events, informerStrings);
    this.indexEvents(events);
    this.resourceVersion = listed.resourceVersion ?? '';
    this.hasListed = true;
    this.warnings = listed.warnings;
    this.limited = listed.limited;
    this.listedAt = Math.min(started, Date.parse(listed.listedAt) || started);
    this.failedAt = undefined;
    this.emit(events, listed.listedAt);
    this.dataAt = listed.listedAt;
    this.setState('live', undefined);
    this.isSynced = true;
    this.markSynced();
  }

  /**
   * Takes a list's objects as what the informer holds of the namespaces it
   * was asked for (all, for an informer of one namespace); objects of
   * namespaces that joined meanwhile are added or updated, never deleted.
   */
  private replaceListed(
    objects: KubernetesObject[],
    asked: ReadonlySet<string> | undefined,
  ): InformerEvent[] {
    if (!asked) return replaceObjects(this.byKey, objects, objectKey);
    const inAsked = (o: KubernetesObject) =>
      asked.has(o.metadata?.namespace ?? '');
    const held = new Map([...this.byKey].filter(([, o]) => inAsked(o)));
    const events = replaceObjects(held, objects.filter(inAsked), objectKey);
    const joined = objects.filter(o => !inAsked(o));
    const merged = new Map(
      joined.map(o => [objectKey(o), this.byKey.get(objectKey(o))!] as const),
    );
    for (const [key, before] of merged) if (!before) merged.delete(key);
    events.push(
      ...replaceObjects(merged, joined, objectKey).filter(
        e => e.type !== 'DELETED',
      ),
    );
    for (const { type, object } of events) {
      if (type === 'DELETED') this.byKey.delete(objectKey(object));
      else this.byKey.set(objectKey(object), object);
    }
    return events;
  }

  private listUpstream(poolStrings: boolean): Promise<ListedKind> {
    this.options.onUpstream?.('list');
    const { namespaces } = this.options;
    return listScope({
      list: this.options.list,
      maxPagesPerList: this.options.maxPagesPerList,
      maxObjects: this.options.maxObjects,
      keep: namespaces ? ns => this.keeps(ns) : undefined,
      namespaceCount: namespaces?.().size,
      signal: this.controller.signal,
      poolStrings,
    });
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
    // The event was parsed from its line and is held by nothing else.
    const { object: checked, problem } = inspectObject(object, this.planned, {
      owned: true,
    });
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
      this.eachListener(l => l.state());
      return;
    }
    const rv = checked.metadata?.resourceVersion;
    if (typeof rv === 'string' && /^[\w.-]{1,64}$/.test(rv))
      this.resourceVersion = rv;
    const namespace = checked.metadata?.namespace;
    if (!this.keeps(namespace)) return;
    const key = objectKey(checked);
    if (type === 'DELETED') {
      if (this.byKey.delete(key)) {
        const events = [{ type, object: checked } as const];
        this.indexEvents(events);
        this.emit(events);
      }
      return;
    }
    const held = this.byKey.get(key);
    if (!held && !this.hasRoom()) {
      if (!this.limited) {
        this.limited = true;
        this.eachListener(l => l.state());
      }
      return;
    }
    informerStrings.internValues(checked);
    this.byKey.set(key, checked);
    const events = [
      {
        type: held ? ('MODIFIED' as const) : ('ADDED' as const),
        object: checked,
      },
    ];
    this.indexEvents(events);
    this.emit(events);
  }
}

/** Failures that concern the whole agent, not one kind: when every kind meets one, there is no partial answer. */
export function isAgentWideFailure(error: GitlabEnvError | undefined): boolean {
  return (
    !!error &&
    [
      'AGENT_NOT_SHARED',
      'AGENT_NEVER_CONNECTED',
      'AGENT_NOT_CONNECTED',
      'KAS_UNAVAILABLE',
    ].includes(error.code)
  );
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
