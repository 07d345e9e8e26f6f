import {
  driftedCount,
  EnvironmentDrift,
  environmentDrift,
  EnvironmentResourcesResponse,
  EventSubject,
  GitlabEnvError,
  groupOfApiVersion,
  isEventAbout,
  isFluxObject,
  KubernetesObject,
  LiveKindState,
  LiveResourceGraph,
  NarrowedScope,
  narrowEnvironmentObjects,
  NO_DRIFT,
  parseFluxResourcePath,
  resourceId,
  ResourceGraph,
  ResourceGraphPatch,
  WatchEvent,
  readOnlyOf,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import {
  asGitlabEnvError,
  GitlabEnvFailure,
  isDefinitiveFailure,
} from '../errors';
import type { LiveTarget } from './liveTarget';
import { kindError, readFluxObjects } from '../reading/fluxObjects';
import { UidGuard } from './uidGuard';
import { ReadBounds } from '../reading/readBounds';
import { objectSourceOf } from '../reading/clusterSources';
import { ObjectRef } from '../reading/objectSource';
import { environmentErrors, markPartial } from './environmentErrors';
import { markExpectedRefusals } from './expectedRefusals';
import { replaceObjects } from '../reading/objectDiff';
import {
  InformerEvent,
  InformerListener,
  isAgentWideFailure,
  isTransportFailure,
  SharedInformer,
} from '../reading/informer';
import { EnvironmentObserver, notify } from './environmentObserver';

/** What an environment tells its viewers; the stream turns it into LiveMessages. */
export type LiveEnvironmentEvent =
  | {
      type: 'patch';
      seq: number;
      patch: ResourceGraphPatch;
      dataAt: string;
      /** The drift of the state the patch leads to (the tree marks it). */
      drift: EnvironmentDrift;
      /** How many objects drifted (driftedCount of `drift`), when the patch changed it. */
      driftedCount?: number;
    }
  /** Patches cannot say it (errors changed, the scope moved): send a snapshot. */
  | { type: 'reset'; seq: number }
  | { type: 'status'; seq: number };

/** The informers an environment holds, as the planner lends them. */
export interface InformerLease {
  informer: SharedInformer;
  /** Resolves once the informer listed this environment's namespace. */
  ready: Promise<void>;
  /** Registers what moves this lease to another informer of the kind, until it is released. */
  onMove?(mover: LeaseMover): void;
  /** The kind's mode and why, as the page shows it. */
  state: LiveKindState;
  /** Someone follows the environment (the kind is kept current), or nobody does (held as read). */
  setLive(live: boolean): void;
  release(): void;
}

/** What moves a lease to another informer of its kind (InformerLease.onMove). */
export interface LeaseMover {
  moved(): void;
}

/** The Flux object and what it names beyond the namespace, as read (and shared between replicas). */
export interface StoredExtras {
  objects: KubernetesObject[];
  errors: GitlabEnvError[];
  /** ISO time of the read. */
  readAt: string;
}

export interface LiveEnvironmentDeps {
  target: LiveTarget;
  /** Lends the informer of a kind for a namespace (the environment's unless named). */
  acquire(
    target: LiveTarget,
    kindIndex: number,
    namespace?: string,
  ): InformerLease;
  /** An object from the informers that list its kind and namespace, when one can tell (see LivePlanner.heldObject). */
  heldObject?(
    ref: ObjectRef,
  ): { object: KubernetesObject | undefined } | undefined;
  /** Where a read's Flux objects are shared with other replicas. */
  sharedExtras?: {
    get(): Promise<StoredExtras | undefined>;
    set(extras: StoredExtras): void;
  };
  /** The stream-wide sequence: every event gets the next number. */
  nextSeq(): number;
  batchMs: number;
  pollIntervalMs: number;
  maxObjects: number;
  maxPagesPerList: number;
  /** The order kinds are subscribed in: the first get the agent's watches (live) or are listed first (a read). */
  kindOrder(kinds: LiveTarget['kinds'], live: boolean): readonly number[];
  /** RBAC refused a kind across the cluster: its next lease is per namespace. */
  onClusterWideRefused(
    target: LiveTarget,
    kind: LiveTarget['kinds'][number],
  ): void;
  /** Told of every applied batch (the timeline). */
  observer?: EnvironmentObserver;
  /** Where an observer's failure is said. */
  onObserverError?: (error: unknown) => void;
}

/** Up to when (ms) what was listed, or failed, must be listed again before a read. */
export interface StaleBefore {
  listedBefore: number;
  failedBefore: number;
  definitiveFailedBefore: number;
}

/** Patches kept for viewers that reconnect (Last-Event-ID). */
const KEPT_EVENTS = 256;

/** A lookup that missed lists its kind again at most this often. */
const MISS_REFRESH_MS = 1000;

function isEmptyPatch(patch: ResourceGraphPatch): boolean {
  return (
    patch.nodesAdded.length === 0 &&
    patch.nodesChanged.length === 0 &&
    patch.nodesRemoved.length === 0 &&
    patch.edgesAdded.length === 0 &&
    patch.edgesRemoved.length === 0 &&
    patch.objectsUpserted.length === 0 &&
    patch.objectsRemoved.length === 0 &&
    !patch.health
  );
}

/**
 * What one lease follows: a kind in a namespace, and which of the
 * informer's objects belong to the environment.
 */
interface Subscription {
  kindIndex: number;
  namespace: string;
  /** Another namespace than the environment's: said in the kind's state. */
  foreign?: boolean;
  /** Which of the namespace's objects belong to the environment; all when left out. */
  keep?(object: KubernetesObject): boolean;
}

/** What an attachment tells its environment (see LiveEnvironment.attach). */
interface AttachmentOwner {
  events(attachment: Attachment, events: InformerEvent[]): void;
  state(attachment: Attachment): void;
  moved(attachment: Attachment): void;
}

/**
 * A lease as the environment follows it: the informer's listener for the
 * subscription's namespace, and what moves it to another informer. A
 * class, not closures: an overview holds one per environment and kind.
 */
class Attachment implements InformerListener, LeaseMover {
  constructor(
    private readonly owner: AttachmentOwner,
    readonly index: number,
    readonly lease: InformerLease,
  ) {}

  events(events: InformerEvent[]) {
    this.owner.events(this, events);
  }

  state() {
    this.owner.state(this);
  }

  moved() {
    this.owner.moved(this);
  }
}

/**
 * The Events about the environment's Flux object when it lives in another
 * namespace (flux-system): its history where the controller keeps no
 * `status.history`, and helm-controller's drift warnings. Followed like
 * any kind (under the agent's watch cap when live), kept by the engine's
 * one Event rule; the subject learns the Flux object's uid once it is read.
 */
function fluxEventsSubscription(
  target: LiveTarget,
  subject: EventSubject | undefined,
): Subscription | undefined {
  const kindIndex = target.kinds.findIndex(
    k => k.group === '' && k.kind === 'Event',
  );
  if (!subject || kindIndex === -1) return undefined;
  if (subject.namespace === target.environment.namespace) return undefined;
  return {
    kindIndex,
    namespace: subject.namespace,
    foreign: true,
    keep: object => isEventAbout(object, subject),
  };
}

/** How an environment's kinds are kept now, as its viewers' status message says. */
export interface EnvironmentStatus {
  upstream: 'live' | 'reconnecting';
  kinds: LiveKindState[];
  narrowed?: NarrowedScope;
}

/** A status as told, to compare with the next (kind states are replaced, never changed). */
interface ToldStatus {
  upstream: EnvironmentStatus['upstream'];
  kinds: LiveKindState[];
  narrowedJson: string | undefined;
}

function toldStatusOf({
  upstream,
  kinds,
  narrowed,
}: EnvironmentStatus): ToldStatus {
  return { upstream, kinds, narrowedJson: JSON.stringify(narrowed) };
}

/**
 * Whether two statuses say the same, field by field: what comparing
 * their JSON said, without writing every kind's reason out per batch.
 */
function sameStatus(told: ToldStatus | undefined, now: ToldStatus): boolean {
  if (
    !told ||
    told.upstream !== now.upstream ||
    told.narrowedJson !== now.narrowedJson ||
    told.kinds.length !== now.kinds.length
  )
    return false;
  return told.kinds.every((kind, index) => {
    const other = now.kinds[index];
    return (
      kind === other ||
      (kind.resource === other.resource &&
        kind.mode === other.mode &&
        kind.reason === other.reason)
    );
  });
}

function idOf(o: KubernetesObject): string {
  return `${o.apiVersion}|${o.kind}|${o.metadata?.namespace ?? ''}|${
    o.metadata?.name
  }`;
}

const newest = (a: string, b: string | undefined) =>
  b !== undefined && b > a ? b : a;

/**
 * One environment as read, shared by all its viewers and readers: the
 * informers of its kinds feed one LiveResourceGraph, whose patches go out
 * batched every `batchMs`. It is the one assembler of an environment's
 * answer: a read (`GET …/resources`, the environments list's health, the
 * overview, actions' lookups) is its snapshot. The Flux object and what
 * its inventory names outside the namespace are read on start, again every
 * `pollIntervalMs` while followed (and on refresh). Errors follow one set
 * of rules (environmentErrors); when they change, a snapshot replaces the
 * patches.
 */
export class LiveEnvironment {
  private readonly graph: LiveResourceGraph;
  private readonly leases: InformerLease[] = [];
  /** How each lease is followed, by the same index. */
  private readonly attachments: Attachment[] = [];
  /** What every attachment tells the environment, shared by all of them. */
  private readonly attachmentOwner: AttachmentOwner = {
    events: ({ index, lease }, events) => {
      const { keep } = this.subscriptions[index];
      this.queue(
        keep ? events.filter(e => keep(e.object)) : events,
        lease.informer.dataAt,
      );
    },
    state: ({ index, lease }) => {
      const { informer } = lease;
      if (
        informer.options.namespace === undefined &&
        informer.error?.code === 'KIND_FORBIDDEN'
      ) {
        // RBAC that refuses the whole cluster may still allow the
        // namespace.
        this.deps.onClusterWideRefused(this.deps.target, informer.options.kind);
        this.move(index, lease);
        return;
      }
      this.onStateChange();
    },
    moved: ({ index, lease }) => this.move(index, lease),
  };
  /** What each lease follows, by the same index. */
  private readonly subscriptions: Subscription[];
  private readonly listeners = new Set<(e: LiveEnvironmentEvent) => void>();
  private pending: WatchEvent[] = [];
  private pendingDataAt = '';
  private stateChanged = false;
  private snapshotMemo: EnvironmentResourcesResponse | undefined;
  /**
   * The graph's objects and graph as the last applied batch left them,
   * built for whoever asks first (the observer, drift, the snapshot): the
   * engine sorts both anew on every call.
   */
  private builtObjects: KubernetesObject[] | undefined;
  private builtGraph: ResourceGraph | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastFlushAt = 0;
  private extrasTimer: NodeJS.Timeout | undefined;
  private readonly extras = new Map<string, KubernetesObject>();
  private extraErrors: GitlabEnvError[] = [];
  /** When the Flux objects were last read (ms); undefined before. */
  private extrasAt: number | undefined;
  private extrasRead: Promise<void> | undefined;
  /** The read asked for while one was under way, to start once it is done. */
  private extrasNext: Promise<void> | undefined;
  private errorsJson = '[]';
  /** The status viewers were last told (see sameStatus). */
  private toldStatus: ToldStatus | undefined;
  private readonly controller = new AbortController();
  /** Recent events, for viewers that resume. */
  private readonly kept: LiveEnvironmentEvent[] = [];
  /** The sequence number this state started at: a viewer that saw less needs a snapshot. */
  readonly startSeq: number;
  lastSeq: number;
  dataAt = new Date().toISOString();
  private stopped = false;
  /** Set once the first lists are in: until then the state is partial and not observed. */
  private observing = false;
  private started = false;
  /** While start queues its first batch, which it flushes itself. */
  private firstBatch = false;
  private live = false;
  /** The Flux object, as far as its Events are concerned. */
  private readonly fluxSubject: EventSubject | undefined;
  /** Flux objects among the graph's nodes: drift is computed only where there are some. */
  private fluxNodes = 0;
  /**
   * The drift of the graph's state, computed once per applied batch: its
   * one owner, which the snapshot's count, the patches' count and the
   * tree's marks all read.
   */
  private drift: EnvironmentDrift = NO_DRIFT;
  /**
   * A shared namespace: every object of it as the informers see it, the
   * ones narrowing admits (what the graph holds), and what it left out.
   */
  private readonly unnarrowed = new Map<string, KubernetesObject>();
  private readonly admitted = new Map<string, KubernetesObject>();
  private narrowed: NarrowedScope | undefined;
  private readonly uids = new UidGuard();
  /**
   * What the graph holds (by idOf), kept from when a batch could pass the
   * object bound on: until then the graph's count decides, since every
   * object let through is in the graph (validated, one apiVersion per
   * kind); and what the bound keeps out of it.
   */
  private held: Set<string> | undefined;
  private readonly withheld = new Map<string, KubernetesObject>();
  private readonly failures = new WeakMap<GitlabEnvError, GitlabEnvFailure>();

  constructor(private readonly deps: LiveEnvironmentDeps) {
    this.startSeq = deps.nextSeq();
    this.lastSeq = this.startSeq;
    this.graph = new LiveResourceGraph([], {
      health: { rules: deps.target.judging.healthRules },
      readOnly: readOnlyOf(deps.target.environment.actionScope),
      relations: deps.target.judging.relations,
    });
    const { environment } = deps.target;
    const path = environment.fluxResourcePath
      ? parseFluxResourcePath(environment.fluxResourcePath)
      : undefined;
    this.fluxSubject = path
      ? { kind: path.kind, namespace: path.namespace, name: path.name }
      : undefined;
    const namespace = environment.namespace!;
    this.subscriptions = deps.target.kinds.map((_, kindIndex) => ({
      kindIndex,
      namespace,
    }));
    const fluxEvents = fluxEventsSubscription(deps.target, this.fluxSubject);
    if (fluxEvents) this.subscriptions.push(fluxEvents);
    // A shared namespace is said so before (and whether or not) objects come.
    this.narrowed = narrowEnvironmentObjects([], environment).narrowed;
  }

  get target(): LiveTarget {
    return this.deps.target;
  }

  /** Whether its first lists are done (its snapshot is whole). */
  get isStarted(): boolean {
    return this.started;
  }

  /**
   * Subscribes to every kind and waits for their first lists (and the Flux
   * objects), so the first snapshot is whole; its objects go in in the
   * kinds' order, whatever order the lists answered in.
   */
  async start(): Promise<void> {
    const { target } = this.deps;
    this.deps
      .kindOrder(target.kinds, this.live)
      .forEach(index => this.attach(index));
    // Beyond the kinds of the namespace, after them: the last to get a watch.
    for (
      let index = target.kinds.length;
      index < this.subscriptions.length;
      index++
    )
      this.attach(index);
    const extras = this.fetchExtras(true);
    const found = await extras;
    // A kind may move to another informer meanwhile (another environment
    // of the agent started one across the cluster): wait for that one.
    // Nothing is awaited between this check and the start, so the kinds
    // taken below are the ones whose lists arrived.
    for (;;) {
      const leases = [...this.leases];
      await Promise.all(leases.map(l => l.ready));
      if (this.stopped || leases.every((l, i) => this.leases[i] === l)) break;
    }
    if (this.stopped) return;
    this.started = true;
    let dataAt = found.readAt;
    // Applied below, at once: no timer for this batch.
    this.firstBatch = true;
    try {
      this.subscriptions.forEach((_, index) => {
        const { informer } = this.leases[index];
        dataAt = newest(dataAt, informer.dataAt);
        this.queueHeld(index, informer.dataAt);
      });
      this.takeExtras(found);
    } finally {
      this.firstBatch = false;
    }
    // Marked changed by takeExtras, the state's errors and status are
    // taken by this flush as what viewers were told.
    this.flush();
    // As old as its newest data (a read from the shared store keeps its time).
    this.dataAt = dataAt || this.dataAt;
    this.snapshotMemo = undefined;
    // The observer hears of the state once whole (the batches before
    // were of kinds listed so far), then batch by batch.
    this.observing = true;
    this.observe(
      this.currentObjects().map(object => ({ type: 'ADDED', object })),
      this.errors(),
    );
    if (this.live) this.scheduleExtras();
  }

  /**
   * Someone follows it (its kinds are kept current, watched first in
   * PRIORITY order, and its Flux objects read every poll interval), or
   * nobody does any more (it holds what it has, for reads).
   */
  setLive(live: boolean) {
    if (live === this.live || this.stopped) return;
    this.live = live;
    const { target } = this.deps;
    for (const index of [
      ...this.deps.kindOrder(target.kinds, true),
      ...this.subscriptions.keys(),
    ].filter((i, at, all) => all.indexOf(i) === at))
      this.leases[index]?.setLive(live);
    if (!this.started) return;
    if (live) {
      // Held since a read: as new as a poll would make them.
      if ((this.extrasAt ?? 0) < Date.now() - this.deps.pollIntervalMs)
        void this.readExtras();
      this.scheduleExtras();
    } else if (this.extrasTimer) {
      clearTimeout(this.extrasTimer);
      this.extrasTimer = undefined;
    }
  }

  private attach(index: number) {
    const { kindIndex, namespace, foreign } = this.subscriptions[index];
    const lease = this.deps.acquire(
      this.deps.target,
      kindIndex,
      foreign ? namespace : undefined,
    );
    const attachment = new Attachment(this.attachmentOwner, index, lease);
    this.leases[index] = lease;
    this.attachments[index] = attachment;
    lease.informer.subscribe(attachment, namespace);
    lease.onMove?.(attachment);
    lease.setLive(this.live);
    if (this.started) this.queueHeld(index, lease.informer.dataAt);
  }

  /** Stops following a lease and gives it back. */
  private detach(index: number) {
    const { lease } = this.attachments[index];
    lease.informer.unsubscribe(
      this.attachments[index],
      this.subscriptions[index].namespace,
    );
    lease.release();
  }

  /** What the subscription keeps of a lease's objects in its namespace. */
  private heldOf(index: number, informer: SharedInformer): KubernetesObject[] {
    const { namespace, keep } = this.subscriptions[index];
    const objects = informer.objectsIn(namespace);
    return keep ? objects.filter(keep) : objects;
  }

  /** What a lease's informer holds of the subscription's objects, as additions. */
  private queueHeld(index: number, dataAt: string | undefined) {
    this.queue(
      this.heldOf(index, this.leases[index].informer).map(object => ({
        type: 'ADDED' as const,
        object,
      })),
      dataAt,
    );
  }

  /**
   * Takes a kind from one informer to the one the planner lends now (one
   * across the cluster, or back to the namespace): what the new one lacks
   * once it listed is deleted from the graph.
   */
  private move(index: number, from: InformerLease) {
    if (this.leases[index] !== from || this.stopped) return;
    const { namespace } = this.subscriptions[index];
    const before = this.heldOf(index, from.informer);
    this.detach(index);
    this.attach(index);
    const to = this.leases[index];
    void to.ready.then(() => {
      if (this.leases[index] !== to || this.stopped) return;
      const kept = new Set(to.informer.objectsIn(namespace).map(idOf));
      this.queue(
        before
          .filter(o => !kept.has(idOf(o)))
          .map(object => ({ type: 'DELETED' as const, object })),
      );
      this.onStateChange();
    });
  }

  private queue(events: WatchEvent[], dataAt?: string) {
    if (events.length === 0 || this.stopped || !this.started) return;
    this.pending.push(...events);
    this.pendingDataAt = newest(
      this.pendingDataAt,
      dataAt ?? new Date().toISOString(),
    );
    this.schedule();
  }

  /**
   * At most one batch per `batchMs`, counted from the last one: a change
   * after a quiet spell goes out on the next turn of the event loop (with
   * whatever arrived in the same read), not a whole period later.
   */
  private schedule() {
    if (this.firstBatch) return;
    this.timer ??= setTimeout(
      () => this.flush(),
      Math.max(0, this.lastFlushAt + this.deps.batchMs - Date.now()),
    );
  }

  /** An informer's state or errors changed: said with the next batch, so many kinds failing at once make one message. */
  private onStateChange() {
    if (this.stopped || !this.started) return;
    this.stateChanged = true;
    this.schedule();
  }

  /** Applies what is pending and sends the patch, or a snapshot when the errors changed. */
  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let patch: ResourceGraphPatch | undefined;
    if (this.pending.length > 0 || this.stateChanged)
      this.lastFlushAt = Date.now();
    const narrowedBefore = JSON.stringify(this.narrowed);
    let applied: WatchEvent[] = [];
    if (this.pending.length > 0) {
      applied = this.bound(this.narrow(this.uids.filter(this.pending)));
      this.pending = [];
      patch = this.graph.apply(applied);
      this.builtObjects = undefined;
      this.builtGraph = undefined;
      this.dataAt = newest(this.dataAt, this.pendingDataAt);
      this.pendingDataAt = '';
    }
    if (!patch && !this.stateChanged) return;
    this.snapshotMemo = undefined;
    const errors = this.errors();
    this.observe(applied, errors);
    const errorsJson = JSON.stringify(errors);
    // What narrowing left out is said in the status, not in patches: a
    // neighbour's churn changes it and must not cost every viewer a snapshot.
    if (JSON.stringify(this.narrowed) !== narrowedBefore)
      this.stateChanged = true;
    const driftedBefore = driftedCount(this.drift);
    if (patch) this.drift = this.driftAfter(patch);
    const drifted = driftedCount(this.drift);
    const driftChanged = drifted !== driftedBefore;
    // How the kinds are kept is said before the data it explains.
    if (this.stateChanged) {
      this.stateChanged = false;
      const status = toldStatusOf(this.status());
      if (!sameStatus(this.toldStatus, status)) {
        this.toldStatus = status;
        this.emit({ type: 'status', seq: this.deps.nextSeq() });
      }
    }
    if (errorsJson !== this.errorsJson) {
      this.errorsJson = errorsJson;
      this.emit({ type: 'reset', seq: this.deps.nextSeq() });
    } else if (patch && (!isEmptyPatch(patch) || driftChanged)) {
      if (patch.health) patch.health = markPartial(patch.health, errors);
      this.emit({
        type: 'patch',
        seq: this.deps.nextSeq(),
        patch,
        dataAt: this.dataAt,
        drift: this.drift,
        ...(driftChanged && { driftedCount: drifted }),
      });
    }
  }

  /**
   * The drift of the state after a patch: computed again where the graph
   * holds a Flux object (nothing else can carry drift).
   */
  private driftAfter(patch: ResourceGraphPatch): EnvironmentDrift {
    for (const node of patch.nodesAdded)
      if (isFluxObject(node.group, node.kind)) this.fluxNodes += 1;
    for (const id of patch.nodesRemoved) {
      const [group, kind] = id.split('/');
      if (isFluxObject(group, kind)) this.fluxNodes -= 1;
    }
    if (this.fluxNodes <= 0) return NO_DRIFT;
    return environmentDrift(this.currentObjects(), this.currentGraph());
  }

  /** The graph's objects as of the last applied batch (see builtObjects). */
  private currentObjects(): KubernetesObject[] {
    return (this.builtObjects ??= this.graph.objects());
  }

  private currentGraph(): ResourceGraph {
    return (this.builtGraph ??= this.graph.graph());
  }

  /** Tells the observer what a batch changed and the health it left. */
  private observe(applied: WatchEvent[], errors: GitlabEnvError[]) {
    if (!this.observing) return;
    const { target, observer, onObserverError } = this.deps;
    notify(
      observer,
      () => ({
        target: { host: target.host, environment: target.environment },
        objects: applied
          .filter(e => e.type !== 'DELETED')
          .map(e => ({ object: e.object, modified: e.type === 'MODIFIED' })),
        health: markPartial(this.graph.health(), errors),
        nodes: () => this.currentGraph().nodes,
        at: new Date().toISOString(),
        // Followed, its watches saw it happen; held for reads, a read found it.
        source: this.live ? 'watch' : 'read',
      }),
      onObserverError ?? (() => undefined),
    );
  }

  /**
   * In a shared namespace, what the events change in the narrowed set:
   * whether an object is the environment's can hang on another (its owner,
   * the Flux object's inventory), so the engine's narrowing is applied to
   * the whole namespace again.
   */
  private narrow(events: WatchEvent[]): WatchEvent[] {
    const { environment } = this.deps.target;
    if (!environment.namespaceSource?.narrowing) return events;
    for (const event of events) {
      if (event.type === 'DELETED') this.unnarrowed.delete(idOf(event.object));
      else this.unnarrowed.set(idOf(event.object), event.object);
    }
    const result = narrowEnvironmentObjects(
      [...this.unnarrowed.values()],
      environment,
    );
    this.narrowed = result.narrowed;
    return replaceObjects(this.admitted, result.objects, idOf);
  }

  /**
   * At most `maxObjects` objects in the graph, the first ones in the kinds'
   * order: the rest are kept out (said as LIMIT_REACHED) and taken in as
   * room frees.
   */
  private bound(events: WatchEvent[]): WatchEvent[] {
    const { maxObjects } = this.deps;
    if (!this.held) {
      let added = 0;
      for (const event of events) if (event.type !== 'DELETED') added += 1;
      // Room for all of them, whatever they are: nothing is kept out.
      if (this.graph.objectCount() + added <= maxObjects) return events;
      this.held = new Set(this.currentObjects().map(idOf));
    }
    const { held } = this;
    const out: WatchEvent[] = [];
    for (const event of events) {
      const id = idOf(event.object);
      if (event.type === 'DELETED') {
        if (this.withheld.delete(id)) continue;
        held.delete(id);
        out.push(event);
      } else if (held.has(id) || held.size < maxObjects) {
        held.add(id);
        out.push(event);
      } else this.withheld.set(id, event.object);
    }
    for (const [id, object] of this.withheld) {
      if (held.size >= maxObjects) break;
      this.withheld.delete(id);
      held.add(id);
      out.push({ type: 'ADDED', object });
    }
    return out;
  }

  private emit(event: LiveEnvironmentEvent) {
    this.lastSeq = event.seq;
    this.kept.push(event);
    if (this.kept.length > KEPT_EVENTS) this.kept.shift();
    this.listeners.forEach(l => l(event));
  }

  /**
   * The events after `seq` when all of them are still kept; undefined
   * when the viewer needs a snapshot instead.
   */
  since(seq: number): LiveEnvironmentEvent[] | undefined {
    if (seq < this.startSeq) return undefined;
    const first = this.kept[0];
    if (first && first.seq > seq + 1 && this.kept.length >= KEPT_EVENTS)
      return undefined;
    return this.kept.filter(e => e.seq > seq);
  }

  subscribe(listener: (e: LiveEnvironmentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get viewers(): number {
    return this.listeners.size;
  }

  /** The whole state, as `GET …/resources` answers it (its drift included). */
  snapshot(): EnvironmentResourcesResponse {
    this.flush();
    // Viewers joining one after another share the one snapshot of a state.
    this.snapshotMemo ??= this.buildSnapshot();
    return this.snapshotMemo;
  }

  private buildSnapshot(): EnvironmentResourcesResponse {
    const { target } = this.deps;
    const errors = this.errors();
    const health = markPartial(this.graph.health(), errors);
    const resources = this.currentObjects();
    const graph = this.currentGraph();
    const drifted = driftedCount(this.drift);
    return {
      entityRef: target.entityRef,
      environment: {
        ...target.environment,
        health,
        ...(drifted > 0 && { driftedCount: drifted }),
      },
      scope: {
        namespace: target.environment.namespace,
        labelSelector: target.labelSelector,
        ...(this.narrowed && { narrowed: this.narrowed }),
      },
      resources,
      graph,
      health,
      errors,
      fetchedAt: this.dataAt,
      // The state's drift as this owner computed it: the polled tree marks
      // it and the drawer shows its reports, without deriving it again.
      ...(drifted > 0 && { drift: this.drift }),
    };
  }

  status(): EnvironmentStatus {
    const reconnecting = this.leases.some(
      l =>
        l.informer.state === 'reconnecting' &&
        l.informer.error?.code !== 'KIND_FORBIDDEN' &&
        l.informer.error?.code !== 'KIND_FAILED',
    );
    return {
      upstream: reconnecting ? 'reconnecting' : 'live',
      kinds: this.leases.map((l, index) => {
        const { namespace, foreign } = this.subscriptions[index];
        return foreign
          ? { ...l.state, resource: `${l.state.resource} in ${namespace}` }
          : l.state;
      }),
      ...(this.narrowed && { narrowed: this.narrowed }),
    };
  }

  /** What makes the data incomplete, as a read names it. */
  errors(): GitlabEnvError[] {
    const { target, maxObjects } = this.deps;
    const namespace = target.environment.namespace;
    const listed: GitlabEnvError[] = [];
    const warnings: GitlabEnvError[] = [];
    let limited = false;
    this.leases.forEach(({ informer }, index) => {
      const label = informer.options.kind.label;
      // The list of the namespace alone (it joined an informer across the
      // cluster) failed: what is held of it is no answer.
      const failedHere = informer.namespaceFailure(
        this.subscriptions[index].namespace,
      )?.error;
      // A watch that broke after a list leaves the data whole but maybe
      // late: the status says reconnecting; it is no gap in the data. A
      // read's list that failed is one.
      if (
        informer.error &&
        !(
          informer.mode !== 'once' &&
          informer.hasListed &&
          isTransportFailure(informer.error)
        )
      ) {
        listed.push(kindError(new GitlabEnvFailure(informer.error), label));
      } else if (failedHere)
        listed.push(kindError(new GitlabEnvFailure(failedHere), label));
      for (const w of informer.warnings)
        if (w.namespace === undefined || w.namespace === namespace)
          warnings.push(w.warning);
      limited ||= informer.limited;
    });
    limited ||= this.withheld.size > 0;
    // Asked at every batch: counted, not listed.
    const size = this.graph.objectCount();
    return environmentErrors({
      listed: [...listed, ...this.extraErrors, ...this.uids.warnings()],
      warnings,
      environment: target.environment,
      labelSelector: target.labelSelector,
      expectedForbiddenKinds: target.judging.expectedForbiddenKinds,
      limitedTo: limited ? { max: maxObjects, shown: size } : undefined,
      empty: size === 0,
    });
  }

  /**
   * Fails as a read must when no kind could be listed for a reason that
   * concerns the whole agent (not shared, not connected, KAS down): there
   * is no partial answer to give.
   */
  throwIfUnreachable() {
    if (!this.isUnreachable()) return;
    const errors = this.leases.map(l => l.informer.error);
    // The same failure each time, so its explanation is made once.
    const detail = errors[0]!;
    let failed = this.failures.get(detail);
    if (!failed)
      this.failures.set(detail, (failed = new GitlabEnvFailure(detail)));
    throw failed;
  }

  /**
   * A kind's failure that another list soon would meet again: a definitive
   * one, or a refusal the agents make on purpose (expectedForbiddenKinds),
   * which leaves the data complete.
   */
  private isLastingFailure(informer: SharedInformer): boolean {
    return this.isLasting(
      kindError(
        new GitlabEnvFailure(informer.error!),
        informer.options.kind.label,
      ),
    );
  }

  private isLasting(error: GitlabEnvError): boolean {
    if (isDefinitiveFailure(new GitlabEnvFailure(error))) return true;
    const { target } = this.deps;
    const [marked] = markExpectedRefusals(
      [error],
      target.judging.expectedForbiddenKinds,
      target.environment.fluxResourcePath,
    );
    return marked.expected === true;
  }

  /** Whether every kind met a failure of the whole agent (see throwIfUnreachable). */
  isUnreachable(): boolean {
    const own = this.leases.slice(0, this.deps.target.kinds.length);
    return (
      own.length > 0 &&
      own.every(l => l.informer.error && isAgentWideFailure(l.informer.error))
    );
  }

  /** When its oldest data was read (ms): it serves reads until then plus their TTL. */
  oldestDataAt(): number | undefined {
    let oldest = this.extrasAt;
    this.leases.forEach((lease, index) => {
      const since = lease.informer.currentSince(
        this.subscriptions[index].namespace,
      );
      if (since !== undefined && (oldest === undefined || since < oldest))
        oldest = since;
    });
    return oldest;
  }

  /**
   * Lists again what a read may not serve any more: kinds listed by
   * `listedBefore` (a watch keeps its kind current), and kinds whose list
   * failed by `failedBefore` (a definitive refusal: before
   * `definitiveFailedBefore`); each relist is shared with every environment
   * of the informer. The Flux objects likewise.
   */
  async refreshStale(before: StaleBefore): Promise<void> {
    const waits = this.staleInformers(before).map(informer =>
      informer.relist(),
    );
    if (this.extrasStale(before)) waits.push(this.readExtras());
    if (waits.length === 0) return;
    await Promise.all(waits);
    this.flush();
  }

  /** Whether a read must list anything again first (see refreshStale). */
  needsRefresh(before: StaleBefore): boolean {
    return this.staleInformers(before).length > 0 || this.extrasStale(before);
  }

  private staleInformers(before: StaleBefore): SharedInformer[] {
    const stale: SharedInformer[] = [];
    this.leases.forEach((lease, index) => {
      const { informer } = lease;
      if (informer.error) {
        const limit = this.isLastingFailure(informer)
          ? before.definitiveFailedBefore
          : before.failedBefore;
        if ((informer.failedAt ?? 0) <= limit) stale.push(informer);
        return;
      }
      const { namespace } = this.subscriptions[index];
      const failed = informer.namespaceFailure(namespace);
      if (failed) {
        // Listed again with the kind, which covers the namespace.
        if (failed.failedAt <= before.failedBefore) stale.push(informer);
        return;
      }
      const since = informer.currentSince(namespace);
      if ((since ?? 0) <= before.listedBefore) stale.push(informer);
    });
    return stale;
  }

  private extrasStale(before: StaleBefore): boolean {
    return (
      !!this.deps.target.environment.fluxResourcePath &&
      ((this.extrasAt ?? 0) <= before.listedBefore ||
        (this.extraErrors.some(e => !this.isLasting(e)) &&
          (this.extrasAt ?? 0) <= before.failedBefore))
    );
  }

  /**
   * The environment's object a target names (API group, kind, namespace,
   * name), from what it holds. When it lacks it and the environment lists
   * that kind in that namespace, that one kind is listed again there (one
   * list, shared by concurrent lookups, at most once a second, never while
   * a watch keeps it current, never when it was listed since `since`),
   * and looked for again. Nothing else is read.
   */
  async findObject(
    target: { group: string; kind: string; namespace: string; name: string },
    since: number,
  ): Promise<KubernetesObject | undefined> {
    const id = resourceId(target);
    const held = this.graph.object(id);
    if (held) return held;
    const index = this.subscriptions.findIndex(
      (sub, i) =>
        i < this.deps.target.kinds.length &&
        sub.namespace === target.namespace &&
        this.deps.target.kinds[sub.kindIndex].group === target.group &&
        this.deps.target.kinds[sub.kindIndex].kind === target.kind,
    );
    const lease = this.leases[index];
    if (!lease) return undefined;
    const { informer } = lease;
    const current = informer.currentSince(target.namespace) ?? 0;
    if (current >= Math.min(since, Date.now() - MISS_REFRESH_MS))
      return undefined;
    await informer.listNamespace(target.namespace);
    this.flush();
    return this.graph.object(id);
  }

  /** Every object it holds now. */
  objects(): KubernetesObject[] {
    this.flush();
    return this.graph.objects();
  }

  /** Reads again now what the informers do not watch, and lists the kinds again. */
  refresh(match?: (informer: SharedInformer) => boolean) {
    this.leases
      .filter(l => !match || match(l.informer))
      .forEach(l => l.informer.relist());
    if (this.live) void this.readExtras();
    else this.extrasAt = 0;
  }

  private scheduleExtras() {
    if (this.stopped || !this.deps.target.environment.fluxResourcePath) return;
    if (this.extrasTimer) clearTimeout(this.extrasTimer);
    this.extrasTimer = setTimeout(async () => {
      await this.readExtras();
      if (this.live) this.scheduleExtras();
    }, this.deps.pollIntervalMs);
    this.extrasTimer.unref?.();
  }

  /**
   * Reads the Flux objects again and applies what changed, one read at a
   * time: asked while a read is under way (a write's refresh), it reads
   * again once that one is done, since that one may have started before
   * the change; every caller asking meanwhile shares that next read.
   */
  private readExtras(): Promise<void> {
    if (this.extrasRead) {
      this.extrasNext ??= this.extrasRead.then(() => {
        this.extrasNext = undefined;
        return this.stopped ? undefined : this.readExtras();
      });
      return this.extrasNext;
    }
    this.extrasRead = this.fetchExtras(false)
      .then(found => {
        if (!this.stopped) this.takeExtras(found);
      })
      .finally(() => {
        this.extrasRead = undefined;
      });
    return this.extrasRead;
  }

  private takeExtras(found: StoredExtras) {
    this.extraErrors = found.errors;
    this.extrasAt = found.readAt ? Date.parse(found.readAt) : Date.now();
    const flux = found.objects.find(
      o =>
        this.fluxSubject &&
        o.kind === this.fluxSubject.kind &&
        o.metadata?.namespace === this.fluxSubject.namespace &&
        o.metadata?.name === this.fluxSubject.name,
    );
    if (this.fluxSubject && flux?.metadata?.uid)
      this.fluxSubject.uid = flux.metadata.uid;
    this.queue(replaceObjects(this.extras, found.objects, idOf), found.readAt);
    this.onStateChange();
  }

  /**
   * The Flux object and what it names outside the namespace (see
   * readFluxObjects), each answered by an informer that lists its kind and
   * namespace when there is one, else read. A read's first ones may come
   * from (and go to) the store replicas share.
   */
  private async fetchExtras(first: boolean): Promise<StoredExtras> {
    const { target } = this.deps;
    // Nothing to read: no time to give the data either.
    if (!target.environment.fluxResourcePath)
      return { objects: [], errors: [], readAt: '' };
    const readAt = new Date().toISOString();
    const shared = this.live ? undefined : this.deps.sharedExtras;
    if (first) {
      const stored = await shared?.get();
      if (stored) return stored;
    }
    const namespace = target.environment.namespace!;
    const watched = new Set(target.kinds.map(k => `${k.group}/${k.kind}`));
    try {
      const { access, labelSelector } = target;
      const bounds = new ReadBounds(
        this.deps.maxPagesPerList,
        this.deps.maxObjects,
        () => undefined,
        this.controller.signal,
      );
      const source = objectSourceOf(access, bounds, labelSelector);
      const read = await readFluxObjects(
        ref => {
          const held = this.deps.heldObject?.(ref);
          return held ? Promise.resolve(held.object) : source.get(ref);
        },
        target.allKinds ?? target.kinds,
        { namespace, fluxResourcePath: target.environment.fluxResourcePath },
      );
      // What an informer of the namespace holds comes from it alone.
      const found: StoredExtras = {
        objects: read.objects.filter(
          o =>
            o.metadata?.namespace !== namespace ||
            !watched.has(`${groupOfApiVersion(o.apiVersion)}/${o.kind}`),
        ),
        errors: read.errors,
        readAt,
      };
      shared?.set(found);
      return found;
    } catch (error) {
      return {
        objects: [...this.extras.values()],
        errors: [asGitlabEnvError(error)],
        readAt,
      };
    }
  }

  stop() {
    this.stopped = true;
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
    if (this.extrasTimer) clearTimeout(this.extrasTimer);
    this.attachments.forEach((_, index) => this.detach(index));
    this.listeners.clear();
  }
}
