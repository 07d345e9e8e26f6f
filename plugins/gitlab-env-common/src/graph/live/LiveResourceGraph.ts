import {
  computeHealth,
  emptyHealthCounts,
  isWorseHealth,
  rollsUp,
} from '../../health';
import { BuildResourceGraphOptions } from '../buildResourceGraph';
import { isRecord } from '../../health/conditions';
import {
  HEALTH_STATUSES,
  HealthCounts,
  HealthStatus,
  HealthSummary,
  KubernetesObject,
  ResourceEdge,
  ResourceEdgeType,
  ResourceGraph,
  ResourceGraphPatch,
  ResourceKey,
  ResourceNode,
  WatchEvent,
} from '../../types';
import { isNewer, missingNode } from '../nodeTable';
import { counted } from '../summarizeGraphHealth';
import { serviceSelector } from '../references';
import { relationRulesOf } from '../relations';
import { NO_FIELDS } from '../relations/fields';
import {
  groupOfApiVersion,
  hasResourceKey,
  namespaceOf,
  resourceId,
  versionOfApiVersion,
} from '../resourceId';
import {
  Published,
  idKey,
  kindNameKey,
  podLabelKey,
  publishedOf,
  referenceLabelKey,
  stemKey,
  uidKey,
} from './keys';
import {
  Addition,
  Bid,
  Frame,
  ITEM_SEQ,
  listedEntries,
  newFrame,
} from './frames';
import { LiveContext, LiveLookups } from './liveContext';
import { LiveForest } from './liveForest';
import { LiveIndex, selectorMatches } from './liveIndex';
import { SetMap } from './setMap';

const NONE = -1;
const EDGE_TYPE_NUMBERS: Record<ResourceEdgeType, number> = {
  owns: 0,
  selects: 1,
  routes: 2,
  scales: 3,
  mounts: 4,
  uses: 5,
  manages: 6,
  sources: 7,
  dependsOn: 8,
};

/** An inventory entry the cluster lacks, and the inventories that list it. */
interface MissingEntry {
  key: ResourceKey;
  id: string;
  slot: number;
  /** Per listing inference, the version its entry names. */
  listers: Map<Frame, string>;
}

/** What a slot holds while the node lives. */
interface Slot {
  node: ResourceNode;
  /** The object; undefined for a Missing inventory entry. */
  object?: KubernetesObject;
  published?: Published;
  /** The last inference of its edges, and of its list items. */
  frame: Frame;
  items: Frame[];
}

function compareIds(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/** Exact up to 2^24 slots and 16 edge types: (2^48 pairs × 16) stays below 2^53. */
function edgeKey(source: number, target: number, type: ResourceEdgeType) {
  return (source * 16777216 + target) * 16 + EDGE_TYPE_NUMBERS[type];
}

/**
 * The dependency graph of an environment, kept up to date one watch event
 * at a time: `apply` updates the nodes, edges, health and roll-ups the
 * change reaches and reports what changed, without rebuilding the rest.
 * After any sequence of events it holds exactly the graph that
 * `buildResourceGraph` builds from its objects (`objects()`, in the order
 * they were first added). Node ids are resource ids, which a change to an
 * object never moves.
 *
 * How: every lookup an object's relations make is remembered under the
 * key it asked for (a uid, a kind and name, a label pair, ...). An event
 * infers the edges of its object again, and of each object that read a
 * key the old or new object answers to; the tree parents, children and
 * subtree health of the nodes those edges touch are then recomputed and
 * the roll-up walks up from there.
 *
 * @public
 */
export class LiveResourceGraph implements LiveLookups {
  private readonly slots: Array<Slot | undefined> = [];
  private readonly orders: number[] = [];
  private readonly slashed: boolean[] = [];
  private readonly freeSlots: number[] = [];
  private nextOrder = 0;
  private readonly index = new LiveIndex(this.orders, this.slashed);
  private readonly missing = new Map<string, MissingEntry>();
  private readonly forest = new LiveForest({
    node: slot => this.slots[slot]!.node,
    writable: slot => this.writable(slot),
    alive: slot => this.alive(slot),
    bestParent: slot => this.bestBid(slot),
  });
  private readonly readers = new SetMap<string, Frame>();
  private readonly edges = new Map<number, ResourceEdge>();
  private readonly edgeCounts = new Map<number, number>();
  private readonly bids: Array<Bid[] | undefined> = [];
  private readonly counts = new Map<string, number>();

  // State of the apply in progress.
  private dirty = new Set<number>();
  private dirtyItems = new Set<Frame>();
  /** While an origin is inferred again: its items' last inference, by place. */
  private reusable: Frame[] = [];
  private before = new Map<number, ResourceNode | null>();
  private edgesBefore = new Map<number, boolean>();
  private removedEdges = new Map<number, ResourceEdge>();
  private released: number[] = [];
  private upserted = new Map<string, KubernetesObject>();
  private removedObjects = new Set<string>();

  constructor(
    objects: readonly KubernetesObject[] = [],
    private readonly options: BuildResourceGraphOptions = {},
  ) {
    const list = Array.isArray(objects) ? objects : [];
    for (const object of list) {
      if (!isRecord(object) || !hasResourceKey(object)) continue;
      const existing = this.index.realById.get(this.idOf(object));
      if (
        existing !== undefined &&
        isNewer(this.slots[existing]!.object!, object)
      )
        continue;
      this.upsert(object);
    }
    this.settle();
  }

  /**
   * Applies watch events in order and reports what changed in the graph.
   * Events without a kind or a name are ignored; a later event on an
   * object wins over an earlier one.
   */
  apply(events: WatchEvent | readonly WatchEvent[]): ResourceGraphPatch {
    const summaryBefore = this.summaryKey();
    for (const event of Array.isArray(events) ? events : [events]) {
      const object = event?.object;
      if (!isRecord(object) || !hasResourceKey(object)) continue;
      if (event.type === 'DELETED') this.delete(this.idOf(object));
      else this.upsert(object);
    }
    const patch = this.settle();
    if (this.summaryKey() !== summaryBefore) patch.health = this.health();
    return patch;
  }

  /** The graph as `buildResourceGraph` returns it: nodes parents first, children and roots by id. */
  graph(): ResourceGraph {
    const roots = [...this.forest.rootSlots()].sort((a, b) =>
      compareIds(this.slots[a]!.node.id, this.slots[b]!.node.id),
    );
    const nodes: ResourceNode[] = [];
    const stack = roots.slice().reverse();
    while (stack.length > 0) {
      const slot = stack.pop()!;
      nodes.push(this.slots[slot]!.node);
      const children = this.forest.childrenOf(slot);
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]);
    }
    return {
      nodes,
      edges: [...this.edges.values()],
      roots: roots.map(slot => this.slots[slot]!.node.id),
    };
  }

  /** The objects, in the order they were first added (a modified object keeps its place). */
  objects(): KubernetesObject[] {
    const live: number[] = [];
    this.slots.forEach((slot, number) => {
      if (slot?.object) live.push(number);
    });
    live.sort((a, b) => this.orders[a] - this.orders[b]);
    return live.map(number => this.slots[number]!.object!);
  }

  /** How many objects the graph holds: `objects().length` without building the list. */
  objectCount(): number {
    return this.index.realById.size;
  }

  /** Counts per status over the resources (Events aside), as `summarizeGraphHealth` gives them. */
  health(): HealthSummary {
    const counts = emptyHealthCounts();
    let status: HealthStatus = 'Healthy';
    let total = 0;
    for (const key of Object.keys(counts) as Array<keyof HealthCounts>) {
      counts[key] = this.counts.get(key) ?? 0;
      total += counts[key];
      if (key !== 'none' && counts[key] > 0 && isWorseHealth(status, key))
        status = key;
    }
    return { status, counts, total };
  }

  /** The node of an id, if the graph holds it. */
  node(id: string): ResourceNode | undefined {
    const slot = this.index.realById.get(id) ?? this.missing.get(id)?.slot;
    return slot === undefined ? undefined : this.slots[slot]?.node;
  }

  /** The object of a node id, if it was built from one. */
  object(id: string): KubernetesObject | undefined {
    const slot = this.index.realById.get(id);
    return slot === undefined ? undefined : this.slots[slot]?.object;
  }

  private summaryKey(): string {
    return HEALTH_STATUSES.map(s => this.counts.get(s) ?? 0)
      .concat(this.counts.get('none') ?? 0)
      .join(',');
  }

  private idOf(object: KubernetesObject & { kind: string }): string {
    return resourceId({
      group: groupOfApiVersion(object.apiVersion),
      kind: object.kind,
      namespace: namespaceOf(object),
      name: object.metadata!.name!,
    });
  }

  // ---- nodes ---------------------------------------------------------

  private allocate(node: ResourceNode, order: number, slashed: boolean) {
    const slot = this.freeSlots.pop() ?? this.slots.length;
    this.slots[slot] = { node, frame: newFrame(slot), items: [] };
    this.orders[slot] = order;
    this.slashed[slot] = slashed;
    this.bids[slot] = undefined;
    this.before.set(slot, null);
    this.forest.add(slot);
    this.count(node, 1);
    return slot;
  }

  private release(slot: number) {
    // Remembered as it was, so the patch reports it removed.
    const node = this.writable(slot);
    this.count(node, -1);
    this.released.push(slot);
    this.forest.remove(slot);
  }

  private count(node: ResourceNode, delta: number) {
    if (!counted(node)) return;
    const key = rollsUp(node.health) ? node.health.status : 'none';
    this.counts.set(key, (this.counts.get(key) ?? 0) + delta);
  }

  /** The node of a slot, copied once per apply so nodes handed out never change. */
  private writable(slot: number): ResourceNode {
    const held = this.slots[slot]!;
    if (!this.before.has(slot)) {
      this.before.set(slot, held.node);
      // childIds is replaced, never changed in place, so it is shared.
      held.node = { ...held.node };
    }
    return held.node;
  }

  private upsert(object: KubernetesObject & { kind: string }) {
    const { name } = object.metadata!;
    const namespace = namespaceOf(object);
    const group = groupOfApiVersion(object.apiVersion);
    const id = resourceId({ group, kind: object.kind, namespace, name: name! });
    const node: ResourceNode = {
      group,
      kind: object.kind,
      namespace,
      name: name!,
      id,
      version: versionOfApiVersion(object.apiVersion),
      uid:
        typeof object.metadata!.uid === 'string'
          ? object.metadata!.uid
          : undefined,
      resourceVersion:
        typeof object.metadata!.resourceVersion === 'string'
          ? object.metadata!.resourceVersion
          : undefined,
      health: computeHealth(object, this.options.health),
      subtreeHealth: undefined,
      parentId: undefined,
      childIds: [],
    };
    const published = publishedOf(node, object);
    const existing = this.index.realById.get(id);
    if (existing === undefined) {
      const slot = this.allocate(
        node,
        this.nextOrder++,
        [group, object.kind, namespace, name!].some(part => part.includes('/')),
      );
      const held = this.slots[slot]!;
      held.object = object;
      held.published = published;
      this.index.add(slot, node, published);
      this.notify(this.index.keysOf(node, published), object, undefined);
      this.dirty.add(slot);
      this.upserted.set(id, object);
      return;
    }
    const held = this.slots[existing]!;
    const previous = held.object!;
    const previousPublished = held.published!;
    const current = this.writable(existing);
    this.count(current, -1);
    current.version = node.version;
    current.uid = node.uid;
    current.resourceVersion = node.resourceVersion;
    current.health = node.health;
    this.count(current, 1);
    this.forest.markHealth(existing);
    held.object = object;
    held.published = published;
    if (published.signature !== previousPublished.signature) {
      this.index.remove(existing, current, previousPublished);
      this.index.add(existing, current, published);
      this.notify(
        [
          ...this.index.keysOf(current, previousPublished),
          ...this.index.keysOf(current, published),
        ],
        object,
        previous,
      );
    }
    this.dirty.add(existing);
    this.upserted.set(id, object);
  }

  private delete(id: string) {
    const slot = this.index.realById.get(id);
    if (slot === undefined) return;
    const held = this.slots[slot]!;
    this.index.remove(slot, held.node, held.published!);
    this.notify(
      this.index.keysOf(held.node, held.published!),
      undefined,
      held.object,
    );
    for (const frame of [held.frame, ...held.items]) {
      this.forget(frame);
      this.unlistStale(frame, new Set());
      this.dirtyItems.delete(frame);
    }
    held.items = [];
    this.dirty.delete(slot);
    this.release(slot);
    this.upserted.delete(id);
    this.removedObjects.add(id);
  }

  // ---- what reads what ---------------------------------------------------

  private read(frame: Frame, key: string) {
    if (this.readers.add(key, frame)) frame.reads.push(key);
  }

  /**
   * Marks the readers of keys an object answers (or answered) to for
   * inference. Services that read a Pod label pair are marked only when
   * their selector matches the Pod before or after.
   */
  private notify(
    keys: readonly string[],
    object: KubernetesObject | undefined,
    previous: KubernetesObject | undefined,
    except?: Frame,
  ) {
    for (const key of keys) {
      if (this.readers.count(key) === 0) continue;
      const readers = this.readers.values(key);
      const podPair = key.charCodeAt(0) === 112; // 'p'
      for (const reader of readers) {
        if (reader === except) continue;
        if (podPair && !this.selectorReaches(reader.origin, object, previous))
          continue;
        if (reader.rerun) this.dirtyItems.add(reader);
        else this.dirty.add(reader.origin);
      }
    }
  }

  private selectorReaches(
    service: number,
    object: KubernetesObject | undefined,
    previous: KubernetesObject | undefined,
  ): boolean {
    const selector = serviceSelector(this.slots[service]!.object!);
    if (!selector) return false;
    return (
      (object !== undefined &&
        selectorMatches(object.metadata?.labels, selector)) ||
      (previous !== undefined &&
        selectorMatches(previous.metadata?.labels, selector))
    );
  }

  /**
   * Drops what an inference added and read; the entries it held Missing
   * stay until it runs again and shows which it still lists.
   */
  private forget(frame: Frame) {
    for (const key of frame.reads) this.readers.delete(key, frame);
    frame.reads = [];
    for (const addition of frame.additions) this.unadd(frame, addition);
    frame.additions = [];
  }

  /** Lets go of the Missing entries an inference listed before and no longer does. */
  private unlistStale(frame: Frame, stillListed: ReadonlySet<string>) {
    for (const id of frame.listed)
      if (!stillListed.has(id)) this.unlist(id, frame);
    frame.listed = listedEntries(stillListed);
  }

  // ---- edges ------------------------------------------------------------

  private addEdge(
    frame: Frame,
    source: number,
    target: number,
    type: ResourceEdgeType,
    rank: number | undefined,
  ) {
    const seq = frame.seqBase + frame.additions.length;
    frame.additions.push({ source, target, type, rank, seq });
    const key = edgeKey(source, target, type);
    const count = this.edgeCounts.get(key) ?? 0;
    this.edgeCounts.set(key, count + 1);
    if (count === 0) {
      if (!this.edgesBefore.has(key)) this.edgesBefore.set(key, false);
      this.edges.set(key, {
        source: this.slots[source]!.node.id,
        target: this.slots[target]!.node.id,
        type,
      });
    }
    if (rank !== undefined) {
      let bids = this.bids[target];
      if (!bids) this.bids[target] = bids = [];
      bids.push({ frame, seq, rank, source });
      this.forest.markParent(target);
    }
  }

  private unadd(frame: Frame, addition: Addition) {
    const key = edgeKey(addition.source, addition.target, addition.type);
    const count = this.edgeCounts.get(key)!;
    if (count === 1) {
      this.edgeCounts.delete(key);
      if (!this.edgesBefore.has(key)) {
        this.edgesBefore.set(key, true);
        this.removedEdges.set(key, this.edges.get(key)!);
      }
      this.edges.delete(key);
    } else {
      this.edgeCounts.set(key, count - 1);
    }
    if (addition.rank === undefined) return;
    const bids = this.bids[addition.target];
    if (!bids) return;
    const at = bids.findIndex(
      bid => bid.frame === frame && bid.seq === addition.seq,
    );
    if (at >= 0) bids.splice(at, 1);
    this.forest.markParent(addition.target);
  }

  // ---- Missing inventory entries ------------------------------------------

  /** Whether inference `a` comes before `b`: by origin in input order, then item. */
  private earlier(a: Frame, b: Frame): boolean {
    const orderA = this.orders[a.origin];
    const orderB = this.orders[b.origin];
    return orderA === orderB ? a.seqBase < b.seqBase : orderA < orderB;
  }

  /** The first inventory listing an entry: its message and version are the node's. */
  private firstLister(entry: MissingEntry): Frame | undefined {
    let first: Frame | undefined;
    for (const lister of entry.listers.keys())
      if (!first || this.earlier(lister, first)) first = lister;
    return first;
  }

  private list(
    key: ResourceKey,
    version: string,
    frame: Frame,
    listing: Set<string>,
  ): number {
    const id = resourceId(key);
    let entry = this.missing.get(id);
    if (!entry) {
      const slot = this.allocate(
        missingNode(key, id, version, this.slots[frame.origin]!.node),
        Number.MAX_SAFE_INTEGER,
        true,
      );
      entry = { key, id, slot, listers: new Map() };
      this.missing.set(id, entry);
      this.notify([idKey(id)], undefined, undefined, frame);
    }
    // An inventory's first entry for a key is the one that counts.
    if (listing.has(id)) return entry.slot;
    listing.add(id);
    if (entry.listers.get(frame) === version) return entry.slot;
    const first = this.firstLister(entry);
    entry.listers.set(frame, version);
    if (first && (first === frame || this.earlier(frame, first)))
      this.relabelMissing(entry, frame);
    return entry.slot;
  }

  private unlist(id: string, frame: Frame) {
    const entry = this.missing.get(id);
    if (!entry || !entry.listers.has(frame)) return;
    const wasFirst = this.firstLister(entry) === frame;
    entry.listers.delete(frame);
    if (entry.listers.size === 0) {
      this.missing.delete(id);
      this.release(entry.slot);
      this.notify([idKey(id)], undefined, undefined);
    } else if (wasFirst) {
      this.relabelMissing(entry);
    }
  }

  /** Names the entry's first inventory in its message, and readers see the change. */
  private relabelMissing(entry: MissingEntry, except?: Frame) {
    const first = this.firstLister(entry)!;
    const fresh = missingNode(
      entry.key,
      entry.id,
      entry.listers.get(first)!,
      this.slots[first.origin]!.node,
    );
    const node = this.writable(entry.slot);
    node.version = fresh.version;
    node.health = fresh.health;
    this.notify([idKey(entry.id)], undefined, undefined, except);
  }

  // ---- inference ----------------------------------------------------------

  /** Infers an origin's edges again, list items included. */
  private infer(origin: number) {
    const held = this.slots[origin]!;
    const previous = held.frame;
    this.forget(previous);
    // Items the object still holds, unchanged at the same place, keep their
    // inference (and stay marked if what they read changed).
    this.reusable = held.items;
    held.frame = newFrame(origin);
    held.items = [];
    const context = new LiveContext(this, held.frame);
    const { group, kind } = context.node;
    for (const rule of relationRulesOf(group, kind)) rule.infer(context);
    held.frame.listed = listedEntries(context.listing);
    const kept = new Set(held.items);
    const stale = [previous, ...this.reusable.filter(f => !kept.has(f))];
    this.reusable = [];
    // After the new inference listed its entries, so an entry still listed stays.
    for (const frame of stale) {
      this.forget(frame);
      this.dirtyItems.delete(frame);
      this.unlistStale(frame, new Set());
    }
  }

  /** Runs one list item's inference again. */
  private inferItem(frame: Frame) {
    this.forget(frame);
    const context = new LiveContext(this, frame);
    frame.rerun!(context);
    this.unlistStale(frame, context.listing);
  }

  /** @internal An item of the origin's list, inferred in a frame of its own. */
  item(
    parent: Frame,
    run: (context: LiveContext) => void,
    itemKey: string | undefined,
  ) {
    const held = this.slots[parent.origin]!;
    const same = this.reusable[held.items.length];
    if (itemKey !== undefined && same?.itemKey === itemKey) {
      same.rerun = run;
      held.items.push(same);
      return;
    }
    const frame = newFrame(parent.origin, (held.items.length + 1) * ITEM_SEQ);
    frame.rerun = run;
    frame.itemKey = itemKey;
    held.items.push(frame);
    const context = new LiveContext(this, frame);
    run(context);
    frame.listed = listedEntries(context.listing);
  }

  /** @internal */
  contextOf(origin: number) {
    const held = this.slots[origin]!;
    return { node: held.node, object: held.object! };
  }

  /** @internal */
  byUid(frame: Frame, uid: string) {
    this.read(frame, uidKey(uid));
    return this.index.lastByUid(uid);
  }

  /** @internal */
  byKindName(frame: Frame, kind: string, name: unknown) {
    if (typeof name !== 'string') return undefined;
    const key = kindNameKey(
      this.slots[frame.origin]!.node.namespace,
      kind,
      name,
    );
    this.read(frame, key);
    return this.index.firstByKindName(key);
  }

  /**
   * @internal The node of a key: from an object, else a Missing entry an
   * inventory before the origin lists (the build creates those in order).
   */
  exact(frame: Frame, key: ResourceKey) {
    const id = resourceId(key);
    this.read(frame, idKey(id));
    const real = this.index.realById.get(id);
    if (real !== undefined) return real;
    const entry = this.missing.get(id);
    if (!entry) return undefined;
    for (const lister of entry.listers.keys())
      if (this.orders[lister.origin] < this.orders[frame.origin])
        return entry.slot;
    return undefined;
  }

  /** @internal */
  selectPods(frame: Frame, selector: Record<string, unknown>) {
    const { namespace } = this.slots[frame.origin]!.node;
    let smallestSize = 0;
    let smallestKey: string | undefined;
    for (const key of Object.keys(selector)) {
      const value = selector[key];
      if (typeof value !== 'string') continue;
      const pairKey = podLabelKey(namespace, key, value);
      const size = this.index.podCount(pairKey);
      if (smallestKey === undefined || size < smallestSize) {
        smallestSize = size;
        smallestKey = pairKey;
      }
    }
    const selected: number[] = [];
    if (smallestKey === undefined) return selected;
    // A Pod the selector matches holds this pair: its changes reach here.
    this.read(frame, smallestKey);
    for (const pod of this.index.pods(smallestKey))
      if (selectorMatches(this.slots[pod]!.object!.metadata?.labels, selector))
        selected.push(pod);
    return selected;
  }

  /** @internal */
  claimsByStem(frame: Frame, stem: string) {
    const key = stemKey(this.slots[frame.origin]!.node.namespace, stem);
    this.read(frame, key);
    return this.index.claims(key);
  }

  /** @internal */
  byReferenceLabel(frame: Frame, label: string, value: string) {
    const key = referenceLabelKey(label, value);
    this.read(frame, key);
    return this.index.referencing(key);
  }

  /** @internal */
  labelsOf(slot: number) {
    return this.slots[slot]!.object?.metadata?.labels ?? NO_FIELDS;
  }

  /** @internal */
  inventoryNode(
    frame: Frame,
    key: ResourceKey,
    version: string,
    listing: Set<string>,
  ) {
    const id = resourceId(key);
    this.read(frame, idKey(id));
    return (
      this.index.realById.get(id) ?? this.list(key, version, frame, listing)
    );
  }

  /** @internal */
  add(
    frame: Frame,
    source: number | undefined,
    target: number | undefined,
    type: ResourceEdgeType,
    rank?: number,
  ) {
    if (source === undefined || target === undefined || source === target)
      return;
    this.addEdge(frame, source, target, type, rank);
  }

  // ---- settling: inference, forest, roll-up, patch --------------------------

  private settle(): ResourceGraphPatch {
    while (this.dirty.size > 0 || this.dirtyItems.size > 0) {
      // In input order, as the build infers; one marked again meanwhile runs again.
      const batch = [...this.dirty].sort(
        (a, b) => this.orders[a] - this.orders[b],
      );
      this.dirty.clear();
      for (const origin of batch)
        if (this.slots[origin]?.object && this.alive(origin))
          this.infer(origin);
      const items = [...this.dirtyItems];
      this.dirtyItems.clear();
      for (const frame of items)
        if (this.slots[frame.origin]?.object && this.alive(frame.origin))
          this.inferItem(frame);
    }
    this.forest.settle();
    const patch = this.patch();
    for (const slot of this.released) {
      this.slots[slot] = undefined;
      this.bids[slot] = undefined;
      this.freeSlots.push(slot);
    }
    this.released = [];
    this.before = new Map();
    this.edgesBefore = new Map();
    this.removedEdges = new Map();
    this.upserted = new Map();
    this.removedObjects = new Set();
    return patch;
  }

  private bestBid(slot: number): number {
    const bids = this.bids[slot];
    let best: Bid | undefined;
    for (const bid of bids ?? []) {
      if (
        !best ||
        bid.rank < best.rank ||
        (bid.rank === best.rank &&
          (this.orders[bid.frame.origin] < this.orders[best.frame.origin] ||
            (bid.frame.origin === best.frame.origin && bid.seq < best.seq)))
      )
        best = bid;
    }
    return best ? best.source : NONE;
  }

  private alive(slot: number): boolean {
    return this.slots[slot] !== undefined && !this.released.includes(slot);
  }

  private patch(): ResourceGraphPatch {
    const added = new Map<string, ResourceNode>();
    const changed: ResourceNode[] = [];
    const removed = new Map<string, ResourceNode>();
    for (const [slot, previous] of this.before) {
      const released = this.released.includes(slot);
      const { node } = this.slots[slot]!;
      if (previous === null) {
        if (!released) added.set(node.id, node);
      } else if (released) {
        removed.set(previous.id, previous);
      } else if (!sameNode(previous, node)) {
        changed.push(node);
      }
    }
    // A node removed and added again under its id (an object recreated, an
    // inventory entry found) changed.
    for (const [id, node] of added) {
      const previous = removed.get(id);
      if (!previous) continue;
      removed.delete(id);
      added.delete(id);
      if (!sameNode(previous, node) || previous.missing !== node.missing)
        changed.push(node);
    }
    const edgesAdded: ResourceEdge[] = [];
    const edgesRemoved: ResourceEdge[] = [];
    for (const [key, existed] of this.edgesBefore) {
      const edge = this.edges.get(key);
      if (edge && !existed) edgesAdded.push(edge);
      if (!edge && existed) edgesRemoved.push(this.removedEdges.get(key)!);
    }
    return {
      nodesAdded: [...added.values()],
      nodesChanged: changed,
      nodesRemoved: [...removed.keys()],
      edgesAdded,
      edgesRemoved,
      objectsUpserted: [...this.upserted.values()],
      objectsRemoved: [...this.removedObjects].filter(
        id => !this.upserted.has(id),
      ),
    };
  }
}

function sameNode(a: ResourceNode, b: ResourceNode): boolean {
  return (
    a.health?.status === b.health?.status &&
    a.health?.message === b.health?.message &&
    a.subtreeHealth === b.subtreeHealth &&
    a.parentId === b.parentId &&
    a.version === b.version &&
    a.uid === b.uid &&
    a.resourceVersion === b.resourceVersion &&
    a.childIds.length === b.childIds.length &&
    a.childIds.every((id, i) => id === b.childIds[i])
  );
}
