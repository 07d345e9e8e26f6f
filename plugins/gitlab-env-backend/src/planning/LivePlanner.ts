import { createHash } from 'crypto';
import { LoggerService } from '@backstage/backend-plugin-api';
import {
  EnvironmentResourcesResponse,
  KubernetesObject,
  LiveKindState,
  parseFluxResourcePath,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { LiveSettings } from '../config';
import { untilLeft } from '../caching/cache';
import type { LiveTarget } from '../assembling/liveTarget';
import type { ListableKind } from '../reading/discovery';
import { collectionPath } from '../validation';
import { listKind, ObjectRef } from '../reading/objectSource';
import {
  InformerLease,
  LeaseMover,
  LiveEnvironment,
  StoredExtras,
} from '../assembling/LiveEnvironment';
import { adopterObjectSource } from '../reading/clusterSources';
import {
  InformerMode,
  InformerOptions,
  ListedKind,
  listScope,
  SharedInformer,
} from '../reading/informer';
import { sameKind } from '../reading/builtInKinds';
import { planWatchSlots } from './watchSlots';
import { ExpectedNamespaces } from './expectedNamespaces';
import type { EnvironmentObserver } from '../assembling/environmentObserver';

/** What a write names: the objects it changed (see LivePlanner.refresh). @public */
export interface RefreshTarget {
  agent: { host: string; id: string };
  namespace: string;
  /** The kind changed (`group` '' for core); all kinds when left out. */
  resource?: { group: string; kind: string };
}

/**
 * Kinds whose changes people watch for first: they get the agent's
 * watches before the rest, which are polled once the cap is reached.
 */
const PRIORITY = [
  '/Pod',
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
  '/Service',
  'networking.k8s.io/Ingress',
  'autoscaling/HorizontalPodAutoscaler',
  '/PersistentVolumeClaim',
  'kustomize.toolkit.fluxcd.io/Kustomization',
  'helm.toolkit.fluxcd.io/HelmRelease',
  '/ConfigMap',
];

/**
 * A kind's place in `order` (after all of them when absent), remembered
 * per kind: discovery's kinds are shared by every environment of the
 * agent, and each orders them when read.
 */
function rankIn(order: readonly string[]): (kind: ListableKind) => number {
  const ranks = new WeakMap<ListableKind, number>();
  return kind => {
    let rank = ranks.get(kind);
    if (rank === undefined) {
      const at = order.indexOf(`${kind.group}/${kind.kind}`);
      rank = at === -1 ? order.length : at;
      ranks.set(kind, rank);
    }
    return rank;
  };
}

const priorityOf = rankIn(PRIORITY);

/**
 * The order a read sends its lists in: kinds that usually hold the most
 * objects (and so the most pages, each a round trip after the last) first,
 * so the longest chains start first under the agent's concurrency limit.
 */
const LARGEST_FIRST = [
  '/Event',
  '/Pod',
  'apps/ReplicaSet',
  '/ConfigMap',
  '/Secret',
  'discovery.k8s.io/EndpointSlice',
  '/Endpoints',
  '/ServiceAccount',
  'batch/Job',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/Role',
  '/Service',
  'apps/Deployment',
];

const sizeRankOf = rankIn(LARGEST_FIRST);

const watchOrderOf = orderBy(priorityOf);
const readOrderOf = orderBy(sizeRankOf);

/**
 * The kinds' indices in the order given by `rank`, stable, remembered per
 * list of kinds: every environment of an agent reads the same discovered
 * kinds, and each asks their order as it starts.
 */
function orderBy(
  rank: (kind: ListableKind) => number,
): (kinds: readonly ListableKind[]) => readonly number[] {
  const orders = new WeakMap<readonly ListableKind[], readonly number[]>();
  return kinds => {
    let order = orders.get(kinds);
    if (!order) {
      const ranks = kinds.map(rank);
      order = ranks
        .map((_, index) => index)
        .sort((a, b) => ranks[a] - ranks[b]);
      orders.set(kinds, order);
    }
    return order;
  };
}

/** The namespaces an environment's read lists: its own, and its Flux object's. */
function namespacesRead(environment: LiveTarget['environment']): string[] {
  const path = environment.fluxResourcePath
    ? parseFluxResourcePath(environment.fluxResourcePath)
    : undefined;
  return [environment.namespace!, ...(path?.namespace ? [path.namespace] : [])];
}

/** How long a list started before discovery (listEarly) waits, once answered, for its informer. */
const EARLY_LIST_KEPT_MS = 10_000;

/** A list started before discovery confirmed its kind (LivePlanner.listEarly). */
interface EarlyList {
  listing: Promise<ListedKind>;
  /** Across the cluster: the namespaces whose objects it keeps. */
  namespaces?: ReadonlySet<string>;
  /** Across the cluster for a gathering: it keeps every namespace's objects. */
  every: boolean;
  controller: AbortController;
}

/** What the planner keeps in the store replicas share (see SharedReadCache.shared). */
export interface SharedStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): void;
}

/** How long a one-shot read's data serves, and a failure's. */
export interface ReadFreshness {
  /** What was listed serves reads this long. */
  ttlMs: number;
  /** A kind whose list failed is listed again after this long. */
  transientMs: number;
  /** A definitive failure (see isDefinitiveFailure) is kept this long. */
  definitiveMs?: number;
}

/** Short, stable name of a set of namespaces, for a shared store key. */
function namespacesKey(namespaces: Iterable<string>): string {
  const sorted = [...namespaces].sort().join(',');
  return sorted.length <= 120
    ? sorted
    : createHash('sha256').update(sorted).digest('base64url');
}

function watchedState(kind: ListableKind): LiveKindState {
  return { resource: kind.label, mode: 'watch' };
}

/**
 * How an informer lists and watches a kind: through KAS (without watch for
 * a kind the API server does not watch), or a backend module's source (no
 * watch).
 */
function sourceOf(
  target: LiveTarget,
  kind: ListableKind,
  namespace: string | undefined,
): Pick<InformerOptions, 'list' | 'watch'> {
  const { access, labelSelector } = target;
  if (access.via === 'module') {
    return {
      list: ({ bounds, keep, namespace: alone }) =>
        adopterObjectSource(
          access.source,
          access.target,
          bounds,
          labelSelector,
        ).listAll(kind, alone ?? namespace, keep),
    };
  }
  const list: InformerOptions['list'] = ({
    signal,
    bounds,
    keep,
    namespace: alone,
    onResourceVersion,
  }) =>
    listKind(access.kas(signal), kind, {
      namespace: alone ?? namespace,
      labelSelector,
      keep: keep && (ns => keep(ns)),
      bounds,
      onResourceVersion,
    });
  if (kind.watchable === false) return { list };
  return {
    list,
    watch: ({ query, signal, onOpen }) =>
      access
        .kas(signal)
        .watch(
          `${collectionPath(
            kind,
            namespace,
            `The cluster's discovery (${kind.label})`,
          )}?${query}`,
          kind.label,
          onOpen,
        ),
  };
}

interface HeldInformer {
  /** Its key in the planner's informers. */
  key: string;
  informer: SharedInformer;
  /** Leases of environments someone follows live: the kind is watched or polled while there is one. */
  liveRefs: number;
  target: LiveTarget;
  /** Its leases that can move to another informer of the kind. */
  movers: Set<PlannerLease>;
  agentKey: string;
  refs: number;
  /** For a watch across the cluster: its lessees' namespaces, counted. */
  namespaces?: Map<string, number>;
  /**
   * For a watch across the cluster: namespaces new to it whose first
   * lease still waits for their list (or for deciding it needs none),
   * with that wait (see namespaceReady).
   */
  deciding?: Map<string, Promise<void>>;
  timer?: NodeJS.Timeout;
  state: LiveKindState;
  /** The cluster refused its last list or watch (see holdsNoWatch). */
  refused?: boolean;
  /** Undefined until its first list; then whether its scope holds no objects. */
  empty?: boolean;
  /** Since when (ms) its scope has held no objects. */
  emptySince?: number;
}

/**
 * A kind the cluster refuses (RBAC, or another 4xx of its list or watch)
 * is retried every poll interval and holds no watch, so no agentk tunnel:
 * it does not count against the agent's watches.
 */
function holdsNoWatch(informer: SharedInformer): boolean {
  const code = informer.error?.code;
  return code === 'KIND_FORBIDDEN' || code === 'KIND_FAILED';
}

/** What a lease tells the planner (LivePlanner.leaseLive, releaseInformer). */
interface LeaseOwner {
  leaseLive(held: HeldInformer, live: boolean): void;
  releaseInformer(held: HeldInformer, namespace: string): void;
}

/**
 * One environment's lease of an informer for a namespace (see
 * LivePlanner.acquire). A class, not closures: an overview holds one per
 * environment and kind.
 */
class PlannerLease implements InformerLease {
  private live = false;
  private released = false;
  private mover: LeaseMover | undefined;

  constructor(
    private readonly owner: LeaseOwner,
    private readonly held: HeldInformer,
    private readonly namespace: string,
    readonly ready: Promise<void>,
  ) {}

  get informer(): SharedInformer {
    return this.held.informer;
  }

  /** Read when asked: a polled kind may be promoted to a watch. */
  get state(): LiveKindState {
    return this.held.state;
  }

  onMove(mover: LeaseMover) {
    // Only a namespace's informer is ever left for another (for the one
    // across the cluster: LivePlanner.moveToClusterWide).
    if (this.released || this.held.informer.options.namespace === undefined)
      return;
    this.mover = mover;
    this.held.movers.add(this);
  }

  /** Moves to another informer of the kind (the one across the cluster). */
  move() {
    this.mover?.moved();
  }

  setLive(on: boolean) {
    if (on === this.live || this.released) return;
    this.live = on;
    this.owner.leaseLive(this.held, on);
  }

  release() {
    if (this.released) return;
    this.held.movers.delete(this);
    this.mover = undefined;
    this.setLive(false);
    this.released = true;
    this.owner.releaseInformer(this.held, this.namespace);
  }
}

interface HeldEnvironment {
  started: Promise<LiveEnvironment>;
  environment: LiveEnvironment;
  /** Readers and viewers now. */
  refs: number;
  /** Viewers of the live stream now. */
  liveRefs: number;
  /** Kept until then after the last reader left (a read's data serves its TTL). */
  holdUntil: number;
  timer?: NodeJS.Timeout;
}

/**
 * Plans every read of the cluster, live and one-shot alike: one informer
 * per (agent, label selector, scope, kind), reference-counted across every
 * environment, viewer and reader, and one LiveEnvironment per environment
 * read, shared by all of them (entity tab, environments list, overview,
 * actions). The informers are the store: `follow` keeps an environment's
 * kinds current (watched, or polled beyond the agent's
 * `maxWatchesPerAgent`, the slots moving to the kinds that have objects,
 * assignSlots); `read` is a one-shot of the same pipeline: its kinds are
 * listed once (`once` mode), held for the read's TTL and answered from
 * there, so a read of an environment someone follows, or read within its
 * TTL, costs no upstream request, and concurrent reads share each list.
 * Several environments of one agent share one informer per kind across
 * the cluster, filtered by namespace, from `clusterWide.minNamespaces` on;
 * where RBAC refuses it, that kind goes back to one informer per
 * namespace. With a shared store (Redis), a replica's first list of a kind
 * and an environment's Flux reads come from what another listed.
 */
export class LivePlanner {
  private readonly informers = new Map<string, HeldInformer>();
  private readonly environments = new Map<string, HeldEnvironment>();
  /** `agent|selector|kind` whose list across the cluster RBAC refused. */
  private readonly clusterForbidden = new Set<string>();
  /** The namespaces expected to be read through each agent and selector (readMany, announce). */
  private readonly expected = new ExpectedNamespaces();
  /** Per agent: reads still gathering (see gather), counted. */
  private readonly gatherings = new Map<string, number>();
  /** Lists started before discovery, by the key of the informer that will take them. */
  private readonly early = new Map<string, EarlyList>();
  /**
   * Sequence numbers start from the process's start time, so a number
   * from another replica or an earlier process never passes for one of
   * this process's (see LiveEnvironment.since).
   */
  private seq = Date.now() * 1000;
  private readonly upstream = { lists: 0, watches: 0 };
  /** Per agent: when an empty watched kind will have settled for a kind waiting for its slot. */
  private readonly slotChecks = new Map<string, NodeJS.Timeout>();
  /** Each target's groupKey, and per kind and groupKey the key of its informer across the cluster (clusterKeyOf). */
  private readonly groupKeys = new WeakMap<LiveTarget, string>();
  private readonly clusterKeys = new WeakMap<
    ListableKind,
    Map<string, string>
  >();
  /** What every lease tells the planner, shared by all of them. */
  private readonly leaseOwner: LeaseOwner = {
    leaseLive: (held, live) => this.leaseLive(held, live),
    releaseInformer: (held, namespace) => this.releaseInformer(held, namespace),
  };

  constructor(
    private readonly settings: LiveSettings,
    private readonly limits: { maxObjects: number; maxPagesPerList: number },
    private readonly clusterWide: { enabled: boolean; minNamespaces: number },
    private readonly logger: LoggerService,
    private readonly options: {
      /** The store replicas share, when there is one. */
      shared?: SharedStore;
      /** How long what a read listed serves (and so how long it is shared). */
      readTtlMs?: number;
      /** How long what a read could not get all of is shared. */
      partialTtlMs?: number;
      /** Told of every batch each environment applies (the timeline). */
      observer?: EnvironmentObserver;
    } = {},
  ) {}

  nextSeq = () => ++this.seq;

  currentSeq(): number {
    return this.seq;
  }

  /**
   * The live state of an environment, started (first lists done) or
   * joined, kept current while followed; `release` when the viewer leaves.
   */
  async follow(
    target: LiveTarget,
  ): Promise<{ environment: LiveEnvironment; release(): void }> {
    const entry = this.hold(target);
    entry.liveRefs += 1;
    if (entry.liveRefs === 1) entry.environment.setLive(true);
    let environment: LiveEnvironment;
    try {
      environment = await entry.started;
    } catch (error) {
      this.releaseEnvironment(target.readKey, entry, true);
      throw error;
    }
    let released = false;
    return {
      environment,
      release: () => {
        if (released) return;
        released = true;
        this.releaseEnvironment(target.readKey, entry, true);
      },
    };
  }

  /**
   * An environment's answer, as `GET …/resources` gives it: a one-shot of
   * the live pipeline. Joins the environment's state when someone follows
   * it or read it within `ttlMs` (no upstream request), else lists its kinds
   * once (each list shared with every concurrent reader and environment of
   * the informer). Kinds whose data is older than the TTL, or whose list
   * failed longer than `transientMs` ago, are listed again first. Fails
   * when every kind met a failure of the whole agent (not shared, not
   * connected). A caller whose signal ends stops waiting; when nobody else
   * waits and the client left, the lists stop.
   */
  read(
    target: LiveTarget,
    freshness: ReadFreshness,
    signal?: AbortSignal,
  ): Promise<EnvironmentResourcesResponse> {
    return this.withEnvironment(target, freshness, signal, environment =>
      environment.snapshot(),
    );
  }

  /**
   * The answer of an environment whose state is held, started and as
   * fresh as `freshness` asks, at once (no discovery, no upstream request);
   * undefined when a read must do more (nothing held, a kind to list again,
   * a failure to explain).
   */
  heldAnswer(
    readKey: string,
    freshness: ReadFreshness,
  ): EnvironmentResourcesResponse | undefined {
    const held = this.environments.get(readKey);
    const environment = held?.environment;
    if (!environment?.isStarted) return undefined;
    const now = Date.now();
    if (
      environment.needsRefresh(this.staleBefore(freshness, now)) ||
      environment.isUnreachable()
    )
      return undefined;
    return environment.snapshot();
  }

  private staleBefore(freshness: ReadFreshness, now: number) {
    return {
      listedBefore: now - freshness.ttlMs,
      failedBefore: now - freshness.transientMs,
      definitiveFailedBefore: now - (freshness.definitiveMs ?? freshness.ttlMs),
    };
  }

  /**
   * `use` with the environment's state, held and as fresh as a read
   * (see read): what an action needs to find its target.
   */
  async withEnvironment<T>(
    target: LiveTarget,
    freshness: ReadFreshness,
    signal: AbortSignal | undefined,
    use: (environment: LiveEnvironment) => T | Promise<T>,
  ): Promise<T> {
    const entry = this.hold(target);
    // Joined while starting: its lists are as new as this read.
    const joinedStarted = entry.environment.isStarted;
    try {
      const environment = await untilLeft(entry.started, signal);
      const now = Date.now();
      if (joinedStarted)
        await untilLeft(
          environment.refreshStale(this.staleBefore(freshness, now)),
          signal,
        );
      environment.throwIfUnreachable();
      entry.holdUntil = Math.max(
        entry.holdUntil,
        (environment.oldestDataAt() ?? now) + freshness.ttlMs,
      );
      return await use(environment);
    } finally {
      const left =
        signal?.aborted &&
        (signal.reason as Error | undefined)?.name !== 'TimeoutError';
      this.releaseEnvironment(target.readKey, entry, false, left);
    }
  }

  /**
   * Reads many environments together (an entity's list, the overview):
   * all are registered before any lists, so environments of one agent share
   * informers across the cluster from the first list, and the Flux objects'
   * namespaces are listed with them. Each answer settles on its own.
   */
  readMany(
    targets: LiveTarget[],
    freshness: ReadFreshness,
    signal?: AbortSignal,
  ): Array<Promise<EnvironmentResourcesResponse>> {
    const groups = new Map<string, Set<string>>();
    for (const target of targets) {
      if (target.access.via !== 'kas' || this.environments.has(target.readKey))
        continue;
      const key = this.groupKey(target);
      const namespaces = groups.get(key) ?? new Set<string>();
      namespacesRead(target.environment).forEach(n => namespaces.add(n));
      groups.set(key, namespaces);
    }
    // Once registered, the informers know every namespace they list.
    const reads = this.expected.during(groups, () =>
      targets.map(target => this.read(target, freshness, signal)),
    );
    // Started now, awaited by their callers later (after locating, the
    // instance check, GitLab's connection state): a read failing before then
    // is theirs to handle, not an unhandled rejection of the process.
    for (const read of reads) read.catch(() => undefined);
    return reads;
  }

  /**
   * Says which environments will be read soon, each on its own (an entity
   * page's cards after its list): until `forMs` from now, an informer
   * started for one of their agents spans the namespaces of all of them,
   * as if they were read together (readMany). Nothing is listed now.
   */
  announce(
    reads: ReadonlyArray<
      Pick<LiveTarget, 'agentKey' | 'labelSelector' | 'environment'>
    >,
    forMs: number,
  ): void {
    const now = Date.now();
    this.expected.forgetEnded(now);
    for (const read of reads)
      this.expected.announce(
        this.groupKey(read),
        namespacesRead(read.environment),
        now + forMs,
      );
  }

  /** The namespaces expected to be read through the agent with this selector (readMany, announce). */
  private expectedOf(groupKey: string): Set<string> {
    const expected = new Set<string>();
    this.expected.some(groupKey, namespace => {
      expected.add(namespace);
      return false;
    });
    return expected;
  }

  /**
   * Many of the agent's environments are about to be read, in batches
   * (the overview, as it lists its rows): until `close`, its informers
   * across the cluster keep every namespace's objects, so their lists
   * start with the first batch and cover the namespaces of every later
   * one (no list of a namespace on its own). A list across the cluster
   * does not depend on the namespaces kept; what they decide is what is
   * held, and on `close` what no environment reads is dropped.
   */
  gather(agentKey: string): { close(): void } {
    this.gatherings.set(agentKey, (this.gatherings.get(agentKey) ?? 0) + 1);
    let closed = false;
    return {
      close: () => {
        if (closed) return;
        closed = true;
        const left = (this.gatherings.get(agentKey) ?? 1) - 1;
        if (left > 0) {
          this.gatherings.set(agentKey, left);
          return;
        }
        this.gatherings.delete(agentKey);
        for (const held of this.informers.values())
          if (held.agentKey === agentKey) held.informer.narrow();
      },
    };
  }

  /** The environment's held state, or a new one started. */
  private hold(target: LiveTarget): HeldEnvironment {
    let held = this.environments.get(target.readKey);
    if (!held) {
      const environment = new LiveEnvironment({
        target,
        acquire: (t, index, namespace) => this.acquire(t, index, namespace),
        heldObject: ref => this.heldObject(target, ref),
        sharedExtras: this.sharedExtras(target),
        nextSeq: this.nextSeq,
        batchMs: this.settings.batchMs,
        pollIntervalMs: this.settings.pollIntervalMs,
        maxObjects: this.limits.maxObjects,
        maxPagesPerList: this.limits.maxPagesPerList,
        kindOrder: (kinds, live) =>
          live ? watchOrderOf(kinds) : readOrderOf(kinds),
        onClusterWideRefused: (t, kind) =>
          this.clusterForbidden.add(this.forbiddenKey(t, kind)),
        observer: this.options.observer,
        onObserverError: error =>
          this.logger.warn(
            `Recording a change of ${target.readKey} failed: ${error}`,
          ),
      });
      const created: HeldEnvironment = {
        refs: 0,
        liveRefs: 0,
        holdUntil: 0,
        environment,
        started: environment.start().then(() => environment),
      };
      created.started.catch(() => {
        environment.stop();
        if (this.environments.get(target.readKey) === created)
          this.environments.delete(target.readKey);
      });
      held = created;
      this.environments.set(target.readKey, held);
    }
    held.refs += 1;
    if (held.timer) clearTimeout(held.timer);
    held.timer = undefined;
    return held;
  }

  /**
   * One reader or viewer less. The environment outlives the last one: a
   * grace period after a viewer (its watches stay for the next), and until
   * its data's TTL after a reader. A reader whose client left takes an
   * environment nobody else waited for down with it, lists and all.
   */
  private releaseEnvironment(
    key: string,
    held: HeldEnvironment,
    live: boolean,
    abandoned = false,
  ) {
    held.refs -= 1;
    if (live) {
      held.liveRefs -= 1;
      if (held.liveRefs === 0) {
        held.environment.setLive(false);
        held.holdUntil = Math.max(
          held.holdUntil,
          Date.now() + this.settings.graceMs,
        );
      }
    }
    if (held.refs > 0) return;
    const drop = () => {
      if (held.refs > 0 || this.environments.get(key) !== held) return;
      this.environments.delete(key);
      held.environment.stop();
    };
    if (abandoned && !held.environment.isStarted) {
      drop();
      return;
    }
    held.timer = setTimeout(drop, Math.max(0, held.holdUntil - Date.now()));
    held.timer.unref?.();
  }

  private groupKey(target: Pick<LiveTarget, 'agentKey' | 'labelSelector'>) {
    return `${target.agentKey}|${target.labelSelector ?? ''}`;
  }

  private forbiddenKey(target: LiveTarget, kind: ListableKind) {
    return `${this.groupKey(target)}|${kind.group}/${kind.kind}`;
  }

  /** Namespaces of the environments read or followed through the agent with this selector. */
  private namespacesOfAgent(target: LiveTarget): Set<string> {
    const namespaces = new Set<string>();
    this.someNamespaceOfAgent(target, namespace => {
      namespaces.add(namespace);
      return false;
    });
    return namespaces;
  }

  /**
   * Whether the agent with this selector reads at least `count` namespaces
   * (namespacesOfAgent): asked for every kind a read leases, so it stops
   * at the count instead of gathering all of them, which for an overview's
   * agent are as many as its environments.
   */
  private readsNamespaces(target: LiveTarget, count: number): boolean {
    const seen = new Set<string>();
    return this.someNamespaceOfAgent(
      target,
      namespace => seen.add(namespace).size >= count,
    );
  }

  /** Visits namespacesOfAgent's namespaces (repeats possible) until `visit` says stop; whether it did. */
  private someNamespaceOfAgent(
    target: LiveTarget,
    visit: (namespace: string) => boolean,
  ): boolean {
    if (visit(target.environment.namespace!)) return true;
    if (this.expected.some(this.groupKey(target), visit)) return true;
    for (const held of this.environments.values()) {
      const t = held.environment?.target;
      if (
        t &&
        t.agentKey === target.agentKey &&
        t.labelSelector === target.labelSelector &&
        visit(t.environment.namespace!)
      )
        return true;
    }
    return false;
  }

  private watchesOf(agentKey: string, replaced?: ListableKind): number {
    let count = 0;
    for (const held of this.informers.values()) {
      const { options } = held.informer;
      if (
        held.agentKey !== agentKey ||
        held.informer.mode !== 'watch' ||
        holdsNoWatch(held.informer)
      )
        continue;
      if (
        replaced &&
        options.namespace !== undefined &&
        options.kind.group === replaced.group &&
        options.kind.plural === replaced.plural
      )
        continue;
      count += 1;
    }
    return count;
  }

  /**
   * Lends the informer of one kind for a namespace: the environment's, or
   * another it reads (the Flux object's Events). Live leases (setLive)
   * count against the agent's watches like any other.
   */
  acquire(
    target: LiveTarget,
    kindIndex: number,
    namespace: string = target.environment.namespace!,
  ): InformerLease {
    const kind = target.kinds[kindIndex];
    const clusterKey = this.clusterKeyOf(target, kind);
    const scope = this.scopeOf(target, kind, namespace, clusterKey);
    const key =
      scope === undefined ? clusterKey : this.informerKey(target, kind, scope);
    let held = this.informers.get(key);
    const created = !held;
    if (!held) held = this.createInformer(key, target, kind, scope);
    held.refs += 1;
    if (held.timer) clearTimeout(held.timer);
    held.timer = undefined;
    let ready = held.informer.synced;
    if (held.namespaces) {
      const count = held.namespaces.get(namespace);
      held.namespaces.set(namespace, (count ?? 0) + 1);
      if (!created) ready = this.namespaceReady(held, namespace, count);
    }
    // The same kind read namespace by namespace moves to the new informer.
    if (created && scope === undefined)
      this.moveToClusterWide(key, target, kind);
    return new PlannerLease(this.leaseOwner, held, namespace, ready);
  }

  /**
   * What a lease of an informer across the cluster waits for, joining it
   * with `namespace` (`count`: the namespace's leases before it). A
   * synced informer that holds the namespace is waited on at once. A
   * namespace new to it is listed in (alone, unless a watch keeps the
   * informer current), decided after the first list and after the lease's
   * setLive (a watching informer lists the namespace with the rest); until
   * that wait is over, the namespace's next leases share it, since they
   * find the namespace known but not yet listed.
   */
  private namespaceReady(
    held: HeldInformer,
    namespace: string,
    count: number | undefined,
  ): Promise<void> {
    const deciding = held.deciding?.get(namespace);
    if (deciding) return deciding;
    const { informer } = held;
    const known = count !== undefined;
    if (informer.isSynced && this.holdsNamespace(informer, namespace, known))
      return informer.namespaceListed(namespace);
    const ready = informer.synced.then(() =>
      this.holdsNamespace(informer, namespace, known)
        ? informer.namespaceListed(namespace)
        : informer.listNamespace(namespace),
    );
    if (known) return ready;
    const waits = (held.deciding ??= new Map());
    waits.set(namespace, ready);
    const done = () => {
      if (waits.get(namespace) === ready) waits.delete(namespace);
    };
    ready.then(done, done);
    return ready;
  }

  /**
   * Whether an informer across the cluster holds (or is listing) a
   * namespace an environment joins with, so it waits for no new list:
   * not when the namespace's list failed (this one lists it again),
   * unless a list that kept every namespace (gather) covers it.
   */
  private holdsNamespace(
    informer: SharedInformer,
    namespace: string,
    known: boolean,
  ): boolean {
    return (
      (known && !informer.namespaceFailure(namespace)) ||
      informer.covers(namespace)
    );
  }

  /**
   * The scope an informer of the kind lists for a namespace: undefined
   * across the cluster (one list, and watch: one of agentk's few tunnels,
   * per kind for many namespaces of an agent), else the namespace.
   * `clusterKey`: the key of the kind's informer across the cluster.
   */
  private scopeOf(
    target: LiveTarget,
    kind: ListableKind,
    namespace: string,
    clusterKey = this.clusterKeyOf(target, kind),
  ): string | undefined {
    return this.acrossCluster(target, kind, clusterKey) ? undefined : namespace;
  }

  /** Whether the kind is listed across the cluster (scopeOf); `clusterKey` is that informer's key. */
  private acrossCluster(
    target: LiveTarget,
    kind: ListableKind,
    clusterKey: string,
  ): boolean {
    return (
      this.clusterWide.enabled &&
      target.access.via === 'kas' &&
      (this.clusterForbidden.size === 0 ||
        !this.clusterForbidden.has(this.forbiddenKey(target, kind))) &&
      (this.informers.has(clusterKey) ||
        this.readsNamespaces(target, this.clusterWide.minNamespaces))
    );
  }

  /**
   * Lists a target's kinds before discovery has confirmed them (the
   * built-in kinds, whose paths are fixed: BUILT_IN_KINDS), in the scope
   * a read's informers would list them in, so they travel with discovery
   * instead of after it. The informer of the same kind and scope, started
   * once discovery answered, takes the list as its first (takeEarly); a
   * kind `discovered` does not confirm at that version is dropped, as is
   * a list no informer took soon after it answered.
   */
  listEarly(target: LiveTarget, discovered: Promise<ListableKind[]>): void {
    if (target.access.via !== 'kas') return;
    // A gathering's informers across the cluster keep every namespace
    // until it closes, and so do its early lists.
    const gathering = this.gatherings.has(target.agentKey);
    const started = new Map<string, ListableKind>();
    // In a read's order: the longest lists first.
    for (const index of readOrderOf(target.kinds)) {
      const kind = target.kinds[index];
      const scope = this.scopeOf(target, kind, target.environment.namespace!);
      const key = this.informerKey(target, kind, scope);
      if (this.informers.has(key) || this.early.has(key)) continue;
      const agentNamespaces =
        scope === undefined ? this.namespacesOfAgent(target) : undefined;
      const every = agentNamespaces !== undefined && gathering;
      const namespaces = every ? undefined : agentNamespaces;
      const controller = new AbortController();
      this.upstream.lists += 1;
      const entry: EarlyList = {
        listing: listScope({
          list: sourceOf(target, kind, scope).list,
          maxPagesPerList: this.limits.maxPagesPerList,
          maxObjects: this.limits.maxObjects,
          keep: namespaces && (n => namespaces.has(n)),
          // Bounded as the informer bounds its own list: per namespace read.
          namespaceCount: agentNamespaces?.size,
          signal: controller.signal,
        }),
        namespaces,
        every,
        controller,
      };
      this.early.set(key, entry);
      started.set(key, kind);
      // Taken, or held for its informer a while: then nobody will take it.
      const drop = () => {
        const timer = setTimeout(
          () => this.dropEarly(key, entry),
          EARLY_LIST_KEPT_MS,
        );
        timer.unref?.();
      };
      entry.listing.then(drop, drop);
    }
    if (started.size === 0) return;
    discovered.then(
      kinds =>
        started.forEach((kind, key) => {
          if (!kinds.some(k => sameKind(k, kind)))
            this.dropEarly(key, this.early.get(key));
        }),
      // The lists meet what discovery met, and end on their own.
      () =>
        started.forEach((_, key) =>
          this.dropEarly(key, this.early.get(key), false),
        ),
    );
  }

  private dropEarly(key: string, entry: EarlyList | undefined, stop = true) {
    if (!entry || this.early.get(key) !== entry) return;
    this.early.delete(key);
    if (stop) entry.controller.abort();
  }

  /**
   * The list started early for an informer's key, when it lists what the
   * informer would: every namespace's objects when it keeps every one,
   * else those of the namespaces it asks for (and no others); it is then
   * the informer's alone.
   */
  private takeEarly(
    key: string,
    asked: ReadonlySet<string> | undefined,
    every: boolean,
  ): Promise<ListedKind> | undefined {
    const entry = this.early.get(key);
    if (!entry) return undefined;
    const covers = every
      ? entry.every
      : !entry.every &&
        (!asked ||
          !entry.namespaces ||
          [...asked].every(n => entry.namespaces!.has(n)));
    if (!covers) {
      this.dropEarly(key, entry);
      return undefined;
    }
    this.early.delete(key);
    return entry.listing;
  }

  /** Asks the environments on per-namespace informers of the kind to take the one across the cluster. */
  private moveToClusterWide(
    clusterKey: string,
    target: LiveTarget,
    kind: ListableKind,
  ) {
    const prefix = `${this.groupKey(target)}|`;
    const suffix = `|${kind.group}/${kind.version}/${kind.plural}`;
    for (const [key, held] of this.informers) {
      if (
        key === clusterKey ||
        !key.startsWith(prefix) ||
        !key.endsWith(suffix)
      )
        continue;
      held.movers.forEach(lease => lease.move());
    }
  }

  /**
   * The key of the kind's informer across the cluster for the target's
   * agent and selector, as informerKey writes it: asked for every lease
   * (each environment, each kind), so written once per agent, selector
   * and kind, and found through the target (one per environment).
   */
  private clusterKeyOf(target: LiveTarget, kind: ListableKind): string {
    let group = this.groupKeys.get(target);
    if (group === undefined) {
      group = this.groupKey(target);
      this.groupKeys.set(target, group);
    }
    let byGroup = this.clusterKeys.get(kind);
    if (!byGroup) this.clusterKeys.set(kind, (byGroup = new Map()));
    let key = byGroup.get(group);
    if (key === undefined) {
      key = this.informerKey(target, kind, undefined);
      byGroup.set(group, key);
    }
    return key;
  }

  private informerKey(
    target: LiveTarget,
    kind: ListableKind,
    namespace: string | undefined,
  ) {
    return `${this.groupKey(target)}|${namespace ?? '*'}|${kind.group}/${
      kind.version
    }/${kind.plural}`;
  }

  /**
   * The object a ref names, from an informer that lists its kind and
   * namespace (no upstream request): `{ object }` (undefined when the
   * listed kind lacks it), or undefined when no informer can tell, or a
   * label selector narrowed its list (absence then proves nothing).
   */
  heldObject(
    target: LiveTarget,
    ref: ObjectRef,
  ): { object: KubernetesObject | undefined } | undefined {
    const kind = target.allKinds?.find(
      k =>
        k.group === ref.group &&
        k.version === ref.version &&
        k.plural === ref.plural,
    );
    if (!kind || kind.clusterScoped) return undefined;
    for (const scope of [ref.namespace, undefined]) {
      const held = this.informers.get(this.informerKey(target, kind, scope));
      if (!held || !held.informer.hasListed || held.informer.error) continue;
      if (scope === undefined && !held.informer.covers(ref.namespace)) continue;
      const object = held.informer.object(ref.namespace, ref.name);
      if (object || !target.labelSelector) return { object };
    }
    return undefined;
  }

  /** The store for an environment's Flux reads, when replicas share one. */
  private sharedExtras(target: LiveTarget) {
    const { shared, readTtlMs, partialTtlMs = 0 } = this.options;
    if (!shared || readTtlMs === undefined) return undefined;
    const key = `extras|${target.readKey}`;
    return {
      get: () => shared.get<StoredExtras>(key),
      set: (value: StoredExtras) => {
        const ttl = value.errors.length > 0 ? partialTtlMs : readTtlMs;
        if (ttl > 0) shared.set(key, value, ttl);
      },
    };
  }

  /** The store for an informer's lists, when replicas share one. */
  private sharedList(
    target: LiveTarget,
    kind: ListableKind,
    namespace: string | undefined,
    namespaces: Map<string, number> | undefined,
  ): InformerOptions['sharedList'] {
    const { shared, readTtlMs } = this.options;
    if (!shared || readTtlMs === undefined) return undefined;
    const key = () =>
      `list|${this.groupKey(target)}|${
        namespace ?? namespacesKey(namespaces?.keys() ?? [])
      }|${kind.group}/${kind.version}/${kind.plural}`;
    return {
      get: () => shared.get<ListedKind>(key()),
      set: listed => shared.set(key(), listed, readTtlMs),
    };
  }

  private createInformer(
    key: string,
    target: LiveTarget,
    kind: ListableKind,
    namespace: string | undefined,
  ): HeldInformer {
    const namespaces =
      namespace === undefined
        ? new Map<string, number>(
            [...this.expectedOf(this.groupKey(target))].map(n => [n, 0]),
          )
        : undefined;
    const source = sourceOf(target, kind, namespace);
    const informer = new SharedInformer({
      kind,
      namespace,
      labelSelector: target.labelSelector,
      mode: 'once',
      ...source,
      maxObjects: this.limits.maxObjects,
      maxPagesPerList: this.limits.maxPagesPerList,
      pollIntervalMs: this.settings.pollIntervalMs,
      watchTimeoutSeconds: this.settings.watchTimeoutSeconds,
      backoff: this.settings.backoff,
      namespaces: namespaces && (() => namespaces),
      keepEveryNamespace:
        namespace === undefined && this.gatherings.has(target.agentKey),
      sharedList: this.sharedList(target, kind, namespace, namespaces),
      earlyList: (asked, every) => this.takeEarly(key, asked, every),
      onUpstream: what => {
        if (what === 'list') this.upstream.lists += 1;
        else this.upstream.watches += 1;
      },
    });
    const held: HeldInformer = {
      key,
      informer,
      liveRefs: 0,
      target,
      movers: new Set(),
      agentKey: target.agentKey,
      refs: 0,
      namespaces,
      state: this.polledState(kind, 'Read once'),
    };
    this.informers.set(key, held);
    // First of its listeners: the lessees read the state it sets.
    informer.subscribe({
      events: () => this.onInformerSize(held),
      state: () => {
        this.onInformerState(held);
        this.onInformerSize(held);
      },
    });
    informer.start();
    return held;
  }

  /**
   * A lease of an environment someone follows (or no longer follows): the
   * kind is kept current (watched within the agent's cap, else polled)
   * while one is, and held as listed once none is.
   */
  private leaseLive(held: HeldInformer, live: boolean) {
    held.liveRefs += live ? 1 : -1;
    if (live && held.liveRefs === 1) this.keepCurrent(held);
    if (!live && held.liveRefs === 0) {
      const watched = held.informer.mode === 'watch';
      held.state = this.polledState(held.informer.options.kind, 'Read once');
      held.informer.setMode('once');
      if (watched) this.assignSlots(held.agentKey);
    }
  }

  /** How a kind someone follows is kept current: watched, or polled and why. */
  private keepCurrent(held: HeldInformer) {
    const { informer, target } = held;
    const { kind, namespace } = informer.options;
    let mode: InformerMode = 'watch';
    if (target.access.via !== 'kas') {
      mode = 'poll';
      held.state = this.polledState(
        kind,
        "A backend module serves this agent's cluster, without watches",
      );
    } else if (!informer.options.watch) {
      mode = 'poll';
      held.state = this.polledState(
        kind,
        `The cluster's API server does not offer watch on ${kind.label}`,
      );
    } else if (
      !holdsNoWatch(informer) &&
      this.watchesOf(
        held.agentKey,
        namespace === undefined ? kind : undefined,
      ) >= this.settings.maxWatchesPerAgent
    ) {
      mode = 'poll';
      held.state = this.cappedState(kind);
    } else if (holdsNoWatch(informer)) {
      held.state = this.polledState(kind, 'The cluster refuses it');
    } else held.state = watchedState(kind);
    informer.setMode(mode);
    this.logger.debug(
      `Live: ${mode} ${kind.label} of ${held.agentKey} in ${
        namespace ?? 'all namespaces'
      }`,
    );
  }

  /**
   * A watched kind the cluster starts refusing gives its slot to a polled
   * kind; one it stops refusing takes a slot again, or is polled when the
   * others took them all meanwhile.
   */
  private onInformerState(held: HeldInformer) {
    const { informer } = held;
    const refused = holdsNoWatch(informer);
    if (refused === !!held.refused || informer.state === 'stopped') return;
    held.refused = refused;
    if (informer.mode !== 'watch') return;
    const { kind } = informer.options;
    if (refused) {
      // It holds no watch: the informer lists it again a poll later.
      held.state = this.polledState(kind, 'The cluster refuses it');
      informer.stateChanged();
      this.assignSlots(held.agentKey);
      return;
    }
    if (this.watchesOf(held.agentKey) <= this.settings.maxWatchesPerAgent) {
      held.state = watchedState(kind);
      informer.stateChanged();
      return;
    }
    held.state = this.cappedState(kind);
    informer.pollFromNow();
  }

  /**
   * A kind's scope emptied or filled (its first list included): the
   * agent's watch slots may move to the kinds that have objects.
   */
  private onInformerSize(held: HeldInformer) {
    const { informer } = held;
    if (!informer.hasListed || informer.state === 'stopped') return;
    const empty = informer.size === 0;
    if (held.empty === empty) return;
    held.empty = empty;
    held.emptySince = empty ? Date.now() : undefined;
    this.assignSlots(held.agentKey);
  }

  /** A kind polled while its scope holds nothing, to leave the slots to kinds with objects. */
  private emptyState(kind: ListableKind): LiveKindState {
    return this.polledState(kind, 'No objects yet; watched once some appear');
  }

  private cappedState(kind: ListableKind): LiveKindState {
    return this.polledState(
      kind,
      `The agent already holds ${this.settings.maxWatchesPerAgent} watches (gitlabEnv.live.maxWatchesPerAgent)`,
    );
  }

  /** A polled kind's state; the page shows what the reasons share before the colon. */
  private polledState(kind: ListableKind, cause: string): LiveKindState {
    const seconds = Math.round(this.settings.pollIntervalMs / 1000);
    return {
      resource: kind.label,
      mode: 'poll',
      reason: `${cause}: ${kind.label} is listed again every ${seconds} s.`,
    };
  }

  private releaseInformer(held: HeldInformer, namespace: string) {
    held.refs -= 1;
    if (held.namespaces) {
      const count = (held.namespaces.get(namespace) ?? 1) - 1;
      if (count <= 0) {
        held.namespaces.delete(namespace);
        held.informer.forgetNamespace(namespace);
      } else held.namespaces.set(namespace, count);
    }
    if (held.refs > 0) return;
    // The environments already waited their grace period.
    if (this.informers.get(held.key) === held) this.informers.delete(held.key);
    void held.informer.stop();
    if (held.informer.mode === 'watch') this.assignSlots(held.agentKey);
  }

  /**
   * Gives the agent's watch slots to the kinds that need them
   * (planWatchSlots): free slots to polled kinds, and the slots of kinds
   * empty for a poll interval to polled kinds with objects. Polled kinds
   * then say why: no objects, or no slot left.
   */
  private assignSlots(agentKey: string) {
    const timer = this.slotChecks.get(agentKey);
    if (timer) clearTimeout(timer);
    this.slotChecks.delete(agentKey);
    const holders = [...this.informers.values()]
      .filter(
        h =>
          h.agentKey === agentKey &&
          h.liveRefs > 0 &&
          h.informer.options.watch !== undefined &&
          h.informer.state !== 'stopped' &&
          !holdsNoWatch(h.informer),
      )
      .map(held => ({
        held,
        mode: held.informer.mode as 'watch' | 'poll',
        priority: priorityOf(held.informer.options.kind),
        objects: held.empty === undefined ? undefined : held.informer.size,
        emptySince:
          held.informer.mode === 'watch' ? held.emptySince : undefined,
      }));
    const free = this.settings.maxWatchesPerAgent - this.watchesOf(agentKey);
    const now = Date.now();
    const plan = planWatchSlots(
      holders,
      free,
      now,
      this.settings.pollIntervalMs,
    );
    for (const { held } of plan.demote) {
      const { kind } = held.informer.options;
      held.state = this.emptyState(kind);
      held.informer.pollFromNow();
      this.logger.debug(
        `Live: poll ${kind.label} of ${agentKey} (no objects; its watch goes to a kind with objects)`,
      );
    }
    for (const { held } of plan.promote) {
      const { kind } = held.informer.options;
      held.state = watchedState(kind);
      held.informer.watchFromNow();
      this.logger.debug(`Live: watch ${kind.label} of ${agentKey}`);
    }
    for (const { held } of holders) {
      if (held.informer.mode !== 'poll') continue;
      const { kind } = held.informer.options;
      const state = held.empty ? this.emptyState(kind) : this.cappedState(kind);
      if (state.reason === held.state.reason) continue;
      held.state = state;
      held.informer.stateChanged();
    }
    if (plan.recheckAt !== undefined) {
      const check = setTimeout(
        () => this.assignSlots(agentKey),
        Math.max(0, plan.recheckAt - now),
      );
      check.unref?.();
      this.slotChecks.set(agentKey, check);
    }
  }

  /**
   * Lists again at once what a write changed, so every viewer sees its
   * effect without waiting for the watch (or the next poll); what only
   * reads hold is listed again by the next read.
   */
  refresh(target: RefreshTarget): number {
    const agentKey = `${target.agent.host}|${target.agent.id}`;
    let count = 0;
    for (const held of this.informers.values()) {
      const { options } = held.informer;
      if (held.agentKey !== agentKey) continue;
      if (
        options.namespace !== undefined
          ? options.namespace !== target.namespace
          : !held.namespaces?.has(target.namespace)
      )
        continue;
      if (
        target.resource &&
        (options.kind.group !== target.resource.group ||
          options.kind.kind !== target.resource.kind)
      )
        continue;
      if (held.informer.mode === 'once') held.informer.markStale();
      else held.informer.relist();
      count += 1;
    }
    for (const held of this.environments.values()) {
      const t = held.environment?.target;
      if (
        t?.agentKey === agentKey &&
        t.environment.namespace === target.namespace
      )
        held.environment!.refresh(() => false);
    }
    return count;
  }

  /** What the planner holds, for the benchmark and tests. */
  stats() {
    let watches = 0;
    let polls = 0;
    let reads = 0;
    for (const held of this.informers.values()) {
      if (held.informer.mode === 'watch') watches += 1;
      else if (held.informer.mode === 'poll') polls += 1;
      else reads += 1;
    }
    return {
      watches,
      polls,
      reads,
      environments: this.environments.size,
      upstreamLists: this.upstream.lists,
      upstreamWatchRequests: this.upstream.watches,
    };
  }

  async close() {
    this.slotChecks.forEach(timer => clearTimeout(timer));
    this.slotChecks.clear();
    for (const held of this.environments.values()) {
      if (held.timer) clearTimeout(held.timer);
      held.environment?.stop();
    }
    this.environments.clear();
    this.early.forEach((entry, key) => this.dropEarly(key, entry));
    await Promise.all([...this.informers.values()].map(h => h.informer.stop()));
    this.informers.clear();
  }
}
