import {
  EnvironmentResourcesResponse,
  GitlabEnvError,
  groupOfApiVersion,
  KubernetesObject,
  LiveKindState,
  parseFluxResourcePath,
  LiveResourceGraph,
  NarrowedScope,
  narrowEnvironmentObjects,
  ResourceGraphPatch,
  WatchEvent,
  readOnlyOf,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { asGitlabEnvError } from '../errors';
import type { LiveTarget } from './liveTarget';
import { readEnvironmentObjects } from '../reading/resourceReader';
import { ReadBounds } from '../reading/readBounds';
import { objectSourceOf } from '../reading/clusterSources';
import { environmentErrors, markPartial } from './assembleRead';
import { replaceObjects } from '../reading/objectDiff';
import { isTransportFailure, SharedInformer } from '../reading/informer';

/** What an environment tells its viewers; the stream turns it into LiveMessages. */
export type LiveEnvironmentEvent =
  | { type: 'patch'; seq: number; patch: ResourceGraphPatch; dataAt: string }
  /** Patches cannot say it (errors changed, the scope moved): send a snapshot. */
  | { type: 'reset'; seq: number }
  | { type: 'status'; seq: number };

/** The informers an environment holds, as the planner lends them. */
export interface InformerLease {
  informer: SharedInformer;
  /** Resolves once the informer listed this environment's namespace. */
  ready: Promise<void>;
  /** Registers how to move this lease to another informer of the kind; returns how to unregister. */
  onMove?(move: () => void): () => void;
  /** The kind's mode and why, as the page shows it. */
  state: LiveKindState;
  release(): void;
}

export interface LiveEnvironmentDeps {
  target: LiveTarget;
  /** Lends the informer of a kind for a namespace (the environment's unless named). */
  acquire(
    target: LiveTarget,
    kindIndex: number,
    namespace?: string,
  ): InformerLease;
  /** The stream-wide sequence: every event gets the next number. */
  nextSeq(): number;
  batchMs: number;
  pollIntervalMs: number;
  maxObjects: number;
  maxPagesPerList: number;
  /** The order kinds are subscribed in: the first get the agent's watches. */
  kindOrder(kinds: LiveTarget['kinds']): number[];
  /** RBAC refused a kind across the cluster: its next lease is per namespace. */
  onClusterWideRefused(
    target: LiveTarget,
    kind: LiveTarget['kinds'][number],
  ): void;
}

/** Patches kept for viewers that reconnect (Last-Event-ID). */
const KEPT_EVENTS = 256;

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
  /** Another namespace than the environment's: said in the kind's state. */
  namespace?: string;
  keep(object: KubernetesObject): boolean;
}

/**
 * The Events about the environment's Flux object when it lives in another
 * namespace (flux-system): its history where the controller keeps no
 * `status.history`, and helm-controller's drift warnings. The read lists
 * them once per read (resourceReader's fluxEvents); live, they are
 * followed like any kind, under the agent's watch cap.
 */
function fluxEventsSubscription(target: LiveTarget): Subscription | undefined {
  const path = target.environment.fluxResourcePath
    ? parseFluxResourcePath(target.environment.fluxResourcePath)
    : undefined;
  const kindIndex = target.kinds.findIndex(
    k => k.group === '' && k.kind === 'Event',
  );
  if (!path || kindIndex === -1) return undefined;
  if (path.namespace === target.environment.namespace) return undefined;
  return {
    kindIndex,
    namespace: path.namespace,
    keep: object => {
      const involved = (object as { involvedObject?: Record<string, unknown> })
        .involvedObject;
      return (
        object.metadata?.namespace === path.namespace &&
        involved?.kind === path.kind &&
        involved?.name === path.name
      );
    },
  };
}

function idOf(o: KubernetesObject): string {
  return `${o.apiVersion}|${o.kind}|${o.metadata?.namespace ?? ''}|${
    o.metadata?.name
  }`;
}

/**
 * One environment followed live, shared by all its viewers: the informers
 * of its kinds feed one LiveResourceGraph, whose patches go out batched
 * every `batchMs`. The Flux object and what its inventory names outside
 * the namespace are read again every `pollIntervalMs` (and on refresh).
 * Errors follow the read's rules (environmentErrors); when they change, a
 * snapshot replaces the patches.
 */
export class LiveEnvironment {
  private readonly graph: LiveResourceGraph;
  private readonly leases: InformerLease[] = [];
  /** What each lease follows, by the same index. */
  private readonly subscriptions: Subscription[];
  private readonly listeners = new Set<(e: LiveEnvironmentEvent) => void>();
  private pending: WatchEvent[] = [];
  private pendingDataAt = '';
  private stateChanged = false;
  private snapshotMemo: EnvironmentResourcesResponse | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastFlushAt = 0;
  private extrasTimer: NodeJS.Timeout | undefined;
  private readonly extras = new Map<string, KubernetesObject>();
  private extraErrors: GitlabEnvError[] = [];
  private errorsJson = '[]';
  private statusJson = '';
  private readonly controller = new AbortController();
  /** Recent events, for viewers that resume. */
  private readonly kept: LiveEnvironmentEvent[] = [];
  /** The sequence number this state started at: a viewer that saw less needs a snapshot. */
  readonly startSeq: number;
  lastSeq: number;
  dataAt = new Date().toISOString();
  private stopped = false;
  /**
   * A shared namespace: every object of it as the informers see it, the
   * ones narrowing admits (what the graph holds), and what it left out.
   */
  private readonly unnarrowed = new Map<string, KubernetesObject>();
  private readonly admitted = new Map<string, KubernetesObject>();
  private narrowed: NarrowedScope | undefined;

  constructor(private readonly deps: LiveEnvironmentDeps) {
    this.startSeq = deps.nextSeq();
    this.lastSeq = this.startSeq;
    this.graph = new LiveResourceGraph([], {
      health: { rules: deps.target.judging.healthRules },
      readOnly: readOnlyOf(deps.target.environment.actionScope),
      relations: deps.target.judging.relations,
    });
    this.subscriptions = deps.target.kinds.map((_, kindIndex) => ({
      kindIndex,
      keep: this.inScope,
    }));
    const fluxEvents = fluxEventsSubscription(deps.target);
    if (fluxEvents) this.subscriptions.push(fluxEvents);
  }

  get target(): LiveTarget {
    return this.deps.target;
  }

  /** Subscribes to every kind and waits for their first lists, so the first snapshot is whole. */
  async start(): Promise<void> {
    const { target } = this.deps;
    this.deps.kindOrder(target.kinds).forEach(index => this.attach(index));
    // Beyond the kinds of the namespace, after them: the last to get a watch.
    for (
      let index = target.kinds.length;
      index < this.subscriptions.length;
      index++
    )
      this.attach(index);
    const extras = this.readExtras();
    // A kind may move to another informer meanwhile (another environment
    // of the agent started a watch across the cluster): wait for that one.
    for (;;) {
      const leases = [...this.leases];
      await Promise.all(leases.map(l => l.ready));
      if (this.stopped || leases.every((l, i) => this.leases[i] === l)) break;
    }
    await extras;
    this.flush();
    this.errorsJson = JSON.stringify(this.errors());
    this.statusJson = JSON.stringify(this.status());
    this.scheduleExtras();
  }

  private inScope = (object: KubernetesObject) =>
    object.metadata?.namespace === this.deps.target.environment.namespace;

  private attach(index: number) {
    const { kindIndex, namespace, keep } = this.subscriptions[index];
    const lease = this.deps.acquire(this.deps.target, kindIndex, namespace);
    this.leases[index] = lease;
    const unsubscribe = lease.informer.subscribe({
      events: list => this.queue(list.filter(e => keep(e.object))),
      state: () => {
        const { informer } = lease;
        if (
          informer.options.namespace === undefined &&
          informer.error?.code === 'KIND_FORBIDDEN'
        ) {
          // The overview's fallback: RBAC that refuses the whole cluster
          // may still allow the namespace.
          this.deps.onClusterWideRefused(
            this.deps.target,
            informer.options.kind,
          );
          this.move(index, lease);
          return;
        }
        this.onStateChange();
      },
    });
    const unregister = lease.onMove?.(() => this.move(index, lease));
    const release = lease.release;
    lease.release = () => {
      unsubscribe();
      unregister?.();
      release();
    };
    this.queue(
      lease.informer
        .objects()
        .filter(keep)
        .map(object => ({ type: 'ADDED' as const, object })),
    );
  }

  /**
   * Takes a kind from one informer to the one the planner lends now (a
   * watch across the cluster, or back to the namespace): what the new one
   * lacks once it listed is deleted from the graph.
   */
  private move(index: number, from: InformerLease) {
    if (this.leases[index] !== from || this.stopped) return;
    const before = from.informer
      .objects()
      .filter(this.subscriptions[index].keep);
    from.release();
    this.attach(index);
    const to = this.leases[index];
    void to.ready.then(() => {
      if (this.leases[index] !== to || this.stopped) return;
      const kept = new Set(to.informer.objects().map(idOf));
      this.queue(
        before
          .filter(o => !kept.has(idOf(o)))
          .map(object => ({ type: 'DELETED' as const, object })),
      );
      this.onStateChange();
    });
  }

  private queue(events: WatchEvent[]) {
    if (events.length === 0 || this.stopped) return;
    this.pending.push(...events);
    this.pendingDataAt = new Date().toISOString();
    this.schedule();
  }

  /**
   * At most one batch per `batchMs`, counted from the last one: a change
   * after a quiet spell goes out on the next turn of the event loop (with
   * whatever arrived in the same read), not a whole period later.
   */
  private schedule() {
    this.timer ??= setTimeout(
      () => this.flush(),
      Math.max(0, this.lastFlushAt + this.deps.batchMs - Date.now()),
    );
  }

  /** An informer's state or errors changed: said with the next batch, so many kinds failing at once make one message. */
  private onStateChange() {
    if (this.stopped) return;
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
    if (this.pending.length > 0) {
      const events = this.narrow(this.pending);
      this.pending = [];
      patch = this.graph.apply(events);
      this.dataAt = this.pendingDataAt;
    }
    if (!patch && !this.stateChanged) return;
    this.snapshotMemo = undefined;
    const errors = this.errors();
    const errorsJson = JSON.stringify(errors);
    // What narrowing left out is said in the status, not in patches: a
    // neighbour's churn changes it and must not cost every viewer a snapshot.
    if (JSON.stringify(this.narrowed) !== narrowedBefore)
      this.stateChanged = true;
    if (errorsJson !== this.errorsJson) {
      this.errorsJson = errorsJson;
      this.emit({ type: 'reset', seq: this.deps.nextSeq() });
    } else if (patch && !isEmptyPatch(patch)) {
      if (patch.health) patch.health = markPartial(patch.health, errors);
      this.emit({
        type: 'patch',
        seq: this.deps.nextSeq(),
        patch,
        dataAt: this.dataAt,
      });
    }
    if (this.stateChanged) {
      this.stateChanged = false;
      const statusJson = JSON.stringify(this.status());
      if (statusJson !== this.statusJson) {
        this.statusJson = statusJson;
        this.emit({ type: 'status', seq: this.deps.nextSeq() });
      }
    }
  }

  /**
   * In a shared namespace, what the events change in the narrowed set:
   * whether an object is the environment's can hang on another (its owner,
   * the Flux object's inventory), so the read's rule is applied to the
   * whole namespace again (narrowEnvironmentObjects, as assembleRead).
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

  /** The whole state, as `GET …/resources` answers it. */
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
    return {
      entityRef: target.entityRef,
      environment: { ...target.environment, health },
      scope: {
        namespace: target.environment.namespace,
        labelSelector: target.labelSelector,
        ...(this.narrowed && { narrowed: this.narrowed }),
      },
      resources: this.graph.objects(),
      graph: this.graph.graph(),
      health,
      errors,
      fetchedAt: this.dataAt,
    };
  }

  status(): {
    upstream: 'live' | 'reconnecting';
    kinds: LiveKindState[];
    narrowed?: NarrowedScope;
  } {
    const reconnecting = this.leases.some(
      l =>
        l.informer.state === 'reconnecting' &&
        l.informer.error?.code !== 'KIND_FORBIDDEN' &&
        l.informer.error?.code !== 'KIND_FAILED',
    );
    return {
      upstream: reconnecting ? 'reconnecting' : 'live',
      kinds: this.leases.map((l, index) => {
        const { namespace } = this.subscriptions[index];
        return namespace
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
    for (const { informer } of this.leases) {
      const label = informer.options.kind.label;
      // A watch that broke after a list leaves the data whole but maybe
      // late: the status says reconnecting; it is no gap in the data.
      if (
        informer.error &&
        !(informer.hasListed && isTransportFailure(informer.error))
      ) {
        const detail = informer.error;
        listed.push(
          detail.code === 'KIND_FORBIDDEN'
            ? { ...detail, resource: label }
            : {
                ...detail,
                message: `Listing ${label} failed: ${detail.message}`,
                resource: label,
              },
        );
      }
      for (const w of informer.warnings)
        if (w.namespace === undefined || w.namespace === namespace)
          warnings.push(w.warning);
      limited ||= informer.limited;
    }
    // Asked at every batch: counted, not listed.
    const size = this.graph.objectCount();
    return environmentErrors({
      listed: [...listed, ...this.extraErrors],
      warnings,
      environment: target.environment,
      labelSelector: target.labelSelector,
      expectedForbiddenKinds: target.judging.expectedForbiddenKinds,
      limitedTo: limited ? { max: maxObjects, shown: size } : undefined,
      empty: size === 0,
    });
  }

  /** Reads again now what the informers do not watch, and lists the kinds again. */
  refresh(match?: (informer: SharedInformer) => boolean) {
    this.leases
      .filter(l => !match || match(l.informer))
      .forEach(l => l.informer.relist());
    void this.readExtras();
  }

  private scheduleExtras() {
    if (this.stopped || !this.deps.target.environment.fluxResourcePath) return;
    this.extrasTimer = setTimeout(async () => {
      await this.readExtras();
      this.scheduleExtras();
    }, this.deps.pollIntervalMs);
    this.extrasTimer.unref?.();
  }

  /**
   * The Flux object and its inventory outside the namespace, through the
   * read's own reader with lists left to the informers.
   */
  private async readExtras(): Promise<void> {
    const { target } = this.deps;
    if (!target.environment.fluxResourcePath || this.stopped) return;
    const namespace = target.environment.namespace!;
    const watched = new Set(target.kinds.map(k => `${k.group}/${k.kind}`));
    try {
      const { access, labelSelector } = target;
      const { signal } = this.controller;
      const bounds = new ReadBounds(
        this.deps.maxPagesPerList,
        this.deps.maxObjects,
        () => undefined,
        signal,
      );
      const source = objectSourceOf(access, bounds, labelSelector);
      const read = await readEnvironmentObjects(
        { list: async () => [], get: ref => source.get(ref) },
        target.allKinds ?? target.kinds,
        { namespace, fluxResourcePath: target.environment.fluxResourcePath },
      );
      if (this.stopped) return;
      // What an informer of the namespace holds comes from it alone.
      const found = read.objects.filter(
        o =>
          o.metadata?.namespace !== namespace ||
          !watched.has(`${groupOfApiVersion(o.apiVersion)}/${o.kind}`),
      );
      this.extraErrors = read.errors;
      this.replaceExtras(found);
    } catch (error) {
      if (this.stopped) return;
      this.extraErrors = [asGitlabEnvError(error)];
      this.onStateChange();
    }
  }

  private replaceExtras(found: KubernetesObject[]) {
    this.queue(replaceObjects(this.extras, found, idOf));
    this.onStateChange();
  }

  stop() {
    this.stopped = true;
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
    if (this.extrasTimer) clearTimeout(this.extrasTimer);
    this.leases.forEach(l => l.release());
    this.listeners.clear();
  }
}
