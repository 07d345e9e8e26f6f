import { LoggerService } from '@backstage/backend-plugin-api';
import { LiveKindState } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { LiveSettings } from '../config';
import type { LiveTarget } from '../assembling/liveTarget';
import type { ListableKind } from '../reading/discovery';
import { collectionPath } from '../validation';
import { listKind } from '../reading/objectSource';
import { InformerLease, LiveEnvironment } from '../assembling/LiveEnvironment';
import { adopterObjectSource } from '../reading/clusterSources';
import { InformerOptions, SharedInformer } from '../reading/informer';
import { planWatchSlots } from './watchSlots';

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

function priorityOf(kind: ListableKind): number {
  const at = PRIORITY.indexOf(`${kind.group}/${kind.kind}`);
  return at === -1 ? PRIORITY.length : at;
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
      list: ({ bounds, keep }) =>
        adopterObjectSource(
          access.source,
          access.target,
          bounds,
          labelSelector,
        ).listAll(kind, namespace, keep),
    };
  }
  const list: InformerOptions['list'] = ({
    signal,
    bounds,
    keep,
    onResourceVersion,
  }) =>
    listKind(access.kas(signal), kind, {
      namespace,
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
  informer: SharedInformer;
  /** Its lessees' ways to move to another informer of the kind. */
  movers: Set<() => void>;
  agentKey: string;
  refs: number;
  /** For a watch across the cluster: its lessees' namespaces, counted. */
  namespaces?: Map<string, number>;
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

interface HeldEnvironment {
  started: Promise<LiveEnvironment>;
  environment: LiveEnvironment;
  refs: number;
  timer?: NodeJS.Timeout;
}

/**
 * Plans the live reads: one informer per (agent, label selector, scope,
 * kind), reference-counted across every environment and viewer, and one
 * LiveEnvironment per environment read, shared by its viewers (entity tab
 * and overview alike). Several environments of one agent share a watch
 * across the cluster, filtered by namespace, from
 * `clusterWide.minNamespaces` on; where RBAC refuses it, that kind goes
 * back to one watch per namespace. Each agent gets at most
 * `maxWatchesPerAgent` watches; further kinds are polled and say so, and
 * the slots move to the kinds that have objects (assignSlots).
 */
export class LivePlanner {
  private readonly informers = new Map<string, HeldInformer>();
  private readonly environments = new Map<string, HeldEnvironment>();
  /** `agent|selector|kind` whose list across the cluster RBAC refused. */
  private readonly clusterForbidden = new Set<string>();
  /**
   * Sequence numbers start from the process's start time, so a number
   * from another replica or an earlier process never passes for one of
   * this process's (see LiveEnvironment.since).
   */
  private seq = Date.now() * 1000;
  private readonly upstream = { lists: 0, watches: 0 };
  /** Per agent: when an empty watched kind will have settled for a kind waiting for its slot. */
  private readonly slotChecks = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly settings: LiveSettings,
    private readonly limits: { maxObjects: number; maxPagesPerList: number },
    private readonly clusterWide: { enabled: boolean; minNamespaces: number },
    private readonly logger: LoggerService,
  ) {}

  nextSeq = () => ++this.seq;

  currentSeq(): number {
    return this.seq;
  }

  /**
   * The live state of an environment, started (first lists done) or
   * joined; `release` when the viewer leaves.
   */
  async follow(
    target: LiveTarget,
  ): Promise<{ environment: LiveEnvironment; release(): void }> {
    let held = this.environments.get(target.readKey);
    if (!held) {
      const environment = new LiveEnvironment({
        target,
        acquire: (t, index, namespace) => this.acquire(t, index, namespace),
        nextSeq: this.nextSeq,
        batchMs: this.settings.batchMs,
        pollIntervalMs: this.settings.pollIntervalMs,
        maxObjects: this.limits.maxObjects,
        maxPagesPerList: this.limits.maxPagesPerList,
        kindOrder: kinds =>
          kinds
            .map((kind, index) => ({ index, priority: priorityOf(kind) }))
            .sort((a, b) => a.priority - b.priority)
            .map(k => k.index),
        onClusterWideRefused: (t, kind) =>
          this.clusterForbidden.add(this.forbiddenKey(t, kind)),
      });
      const created: HeldEnvironment = {
        refs: 0,
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
    const entry = held;
    entry.refs += 1;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    let environment: LiveEnvironment;
    try {
      environment = await entry.started;
    } catch (error) {
      this.releaseEnvironment(target.readKey, entry);
      throw error;
    }
    let released = false;
    return {
      environment,
      release: () => {
        if (released) return;
        released = true;
        this.releaseEnvironment(target.readKey, entry);
      },
    };
  }

  private releaseEnvironment(key: string, held: HeldEnvironment) {
    held.refs -= 1;
    if (held.refs > 0) return;
    held.timer = setTimeout(() => {
      if (held.refs > 0 || this.environments.get(key) !== held) return;
      this.environments.delete(key);
      held.environment.stop();
    }, this.settings.graceMs);
    held.timer.unref?.();
  }

  private forbiddenKey(target: LiveTarget, kind: ListableKind) {
    return `${target.agentKey}|${target.labelSelector ?? ''}|${kind.group}/${
      kind.kind
    }`;
  }

  /** Namespaces of the environments followed through the agent with this selector. */
  private namespacesOfAgent(target: LiveTarget): Set<string> {
    const namespaces = new Set<string>([target.environment.namespace!]);
    for (const held of this.environments.values()) {
      const t = held.environment?.target;
      if (
        t &&
        t.agentKey === target.agentKey &&
        t.labelSelector === target.labelSelector
      )
        namespaces.add(t.environment.namespace!);
    }
    return namespaces;
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
   * another it reads (the Flux object's Events), counted against the
   * agent's watches like any other.
   */
  acquire(
    target: LiveTarget,
    kindIndex: number,
    namespace: string = target.environment.namespace!,
  ): InformerLease {
    const kind = target.kinds[kindIndex];
    // Every watch holds one of agentk's few tunnels: from the second
    // namespace of an agent on, a kind is watched once across the cluster.
    const acrossCluster =
      this.clusterWide.enabled &&
      target.access.via === 'kas' &&
      !this.clusterForbidden.has(this.forbiddenKey(target, kind)) &&
      (this.informers.has(this.informerKey(target, kind, undefined)) ||
        this.namespacesOfAgent(target).size >= 2);
    const scope = acrossCluster ? undefined : namespace;
    const key = this.informerKey(target, kind, scope);
    let held = this.informers.get(key);
    const created = !held;
    if (!held) held = this.createInformer(key, target, kind, scope);
    const entry = held;
    entry.refs += 1;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    let ready = entry.informer.synced;
    if (entry.namespaces) {
      const count = entry.namespaces.get(namespace) ?? 0;
      entry.namespaces.set(namespace, count + 1);
      // A namespace new to a watch across the cluster: list it in.
      if (count === 0 && !created) ready = entry.informer.relist();
    }
    // The same kind watched namespace by namespace moves to the new watch.
    if (created && scope === undefined)
      this.moveToClusterWide(key, target, kind);
    let released = false;
    return {
      informer: entry.informer,
      // Read when asked: a polled kind may be promoted to a watch.
      get state() {
        return entry.state;
      },
      ready,
      onMove: move => {
        entry.movers.add(move);
        return () => entry.movers.delete(move);
      },
      release: () => {
        if (released) return;
        released = true;
        this.releaseInformer(key, entry, namespace);
      },
    };
  }

  /** Asks the environments on per-namespace informers of the kind to take the one across the cluster. */
  private moveToClusterWide(
    clusterKey: string,
    target: LiveTarget,
    kind: ListableKind,
  ) {
    const prefix = `${target.agentKey}|${target.labelSelector ?? ''}|`;
    const suffix = `|${kind.group}/${kind.version}/${kind.plural}`;
    for (const [key, held] of this.informers) {
      if (
        key === clusterKey ||
        !key.startsWith(prefix) ||
        !key.endsWith(suffix)
      )
        continue;
      held.movers.forEach(move => move());
    }
  }

  private informerKey(
    target: LiveTarget,
    kind: ListableKind,
    namespace: string | undefined,
  ) {
    return `${target.agentKey}|${target.labelSelector ?? ''}|${
      namespace ?? '*'
    }|${kind.group}/${kind.version}/${kind.plural}`;
  }

  private createInformer(
    key: string,
    target: LiveTarget,
    kind: ListableKind,
    namespace: string | undefined,
  ): HeldInformer {
    const { maxWatchesPerAgent } = this.settings;
    const { access } = target;
    // Per-namespace watches of the kind a new watch across the cluster
    // replaces do not count: they end as their environments move.
    const replaced = namespace === undefined ? kind : undefined;
    const source = sourceOf(target, kind, namespace);
    const capped =
      source.watch !== undefined &&
      this.watchesOf(target.agentKey, replaced) >= maxWatchesPerAgent;
    const namespaces = namespace === undefined ? new Map() : undefined;
    const informer = new SharedInformer({
      kind,
      namespace,
      labelSelector: target.labelSelector,
      mode: capped || !source.watch ? 'poll' : 'watch',
      ...source,
      maxObjects: this.limits.maxObjects,
      maxPagesPerList: this.limits.maxPagesPerList,
      pollIntervalMs: this.settings.pollIntervalMs,
      watchTimeoutSeconds: this.settings.watchTimeoutSeconds,
      backoff: this.settings.backoff,
      namespaces: namespaces && (() => namespaces),
      onUpstream: what => {
        if (what === 'list') this.upstream.lists += 1;
        else this.upstream.watches += 1;
      },
    });
    let state = watchedState(kind);
    if (access.via !== 'kas')
      state = this.polledState(
        kind,
        "A backend module serves this agent's cluster, without watches",
      );
    else if (!source.watch)
      state = this.polledState(
        kind,
        `The cluster's API server does not offer watch on ${kind.label}`,
      );
    else if (capped) state = this.cappedState(kind);
    const held: HeldInformer = {
      informer,
      movers: new Set(),
      agentKey: target.agentKey,
      refs: 0,
      namespaces,
      state,
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
    this.logger.debug(
      `Live: ${state.mode} ${kind.label} of ${target.agentKey} in ${
        namespace ?? 'all namespaces'
      }`,
    );
    return held;
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

  private releaseInformer(key: string, held: HeldInformer, namespace: string) {
    held.refs -= 1;
    if (held.namespaces) {
      const count = (held.namespaces.get(namespace) ?? 1) - 1;
      if (count <= 0) held.namespaces.delete(namespace);
      else held.namespaces.set(namespace, count);
    }
    if (held.refs > 0) return;
    // The environments already waited their grace period.
    if (this.informers.get(key) === held) this.informers.delete(key);
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
          h.informer.options.watch !== undefined &&
          h.informer.state !== 'stopped' &&
          !holdsNoWatch(h.informer),
      )
      .map(held => ({
        held,
        mode: held.informer.mode,
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
   * effect without waiting for the watch (or the next poll).
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
      held.informer.relist();
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
    for (const held of this.informers.values()) {
      if (held.informer.mode === 'watch') watches += 1;
      else polls += 1;
    }
    return {
      watches,
      polls,
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
    await Promise.all([...this.informers.values()].map(h => h.informer.stop()));
    this.informers.clear();
  }
}
